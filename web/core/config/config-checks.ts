// Cross-setting checks of seed 000/003 that need to know which modules are on.
import { HarnessError } from '../contracts';
import { isBuiltinProtocol } from '../providers';
import type { ModelConfig, ProviderBinding } from './model-config';

/** Modules of the old Responses conversion (profile `full`/`responses`): they encode Responses themselves. */
export const LEGACY_RESPONSES_MODULES = ['responses', 'responses-budget', 'responses-compact'] as const;

/**
 * Seed 003: `protocol: responses` already converts to the Responses API; registering the old `responses` hook as
 * well would encode twice, so it is an explicit error (use the `standard` profile).
 */
export function checkResponsesHook(config: Pick<ModelConfig, 'protocol'>, enabledModules: readonly string[]): void {
  if (config.protocol !== 'responses') return;
  const clash = enabledModules.filter((m) => (LEGACY_RESPONSES_MODULES as readonly string[]).includes(m));
  if (clash.length) {
    throw new HarnessError(
      'E_CONFIG_RESPONSES_HOOK',
      `protocol "responses" already speaks the Responses API, but the old responses hook is enabled too (${clash.join(', ')}): requests would be encoded twice. Use the standard profile, or protocol "openai" with the old hook.`,
      { modules: clash },
    );
  }
}

/**
 * Seed 000 §7 / 003: with the budget module or compaction on, budget.context_window must describe the chosen model
 * (there is no capacity table to guess from), and the output reserve must fit in it. Do not turn the budget off to
 * silence this ("不要为绕过配置错误而关闭预算检查"). `where` says where the person fixes it (the config file, or
 * Settings → Model in the app).
 */
export function checkBudgetConfig(
  config: Pick<ModelConfig, 'budget' | 'max_tokens' | 'model'>,
  budgetEnabled: boolean,
  where = 'the model config',
): void {
  if (!budgetEnabled) return;
  const window = config.budget?.context_window;
  if (window === undefined) {
    throw new HarnessError(
      'E_CONFIG_BUDGET_WINDOW',
      `At budget.context_window: the profile meters the context budget (budget or compact module), so the context window of "${config.model}" is required. Set it in ${where} (e.g. {"budget": {"context_window": 128000}}); look it up in the provider's model documentation.`,
      { path: 'budget.context_window' },
    );
  }
  const reserve = config.budget?.output_reserve ?? config.max_tokens;
  if (reserve >= window) {
    const path = config.budget?.output_reserve === undefined ? 'max_tokens' : 'budget.output_reserve';
    throw new HarnessError(
      'E_CONFIG_BUDGET_WINDOW',
      `At ${path}: an output reserve of ${reserve} leaves no room for input in a ${window}-token window. Lower ${path} in ${where}.`,
      { path },
    );
  }
}

/** `binding: null`: a custom protocol served by the worker the environment provides (plugins manifest, paired bridge). */
export type ProviderResolution =
  { kind: 'builtin'; protocol: string } | { kind: 'custom'; protocol: string; binding: ProviderBinding | null };

/** An explicit binding wins; a selector that is not built in needs a worker; neither ever falls back to a built-in adapter (seed 003). */
export function resolveProvider(config: Pick<ModelConfig, 'protocol' | 'provider'>): ProviderResolution {
  if (config.provider) return { kind: 'custom', protocol: config.protocol, binding: config.provider };
  return isBuiltinProtocol(config.protocol)
    ? { kind: 'builtin', protocol: config.protocol }
    : { kind: 'custom', protocol: config.protocol, binding: null };
}
