// Which of the profile's budget-related modules run, and the cross-setting checks of seed 000 §7 / 003 that
// depend on it, run where configs are read (headless `i` before the run, the app at each turn start). A profile
// that meters or compacts without the model's context window is a configuration error, never a silent skip.
import { checkBudgetConfig, checkResponsesHook, type ModelConfig } from '../../config';
import type { ModuleName } from '../profiles';

/**
 * Whether the budget meter and compaction run for `protocol`: on the Responses API a `responses-` variant in the
 * selection stands in for its plain module. Compaction also needs compact.json's `enabled`.
 */
export function budgetModulesOn(
  active: ReadonlySet<ModuleName>,
  protocol: string,
  compactEnabled: boolean,
): { budget: boolean; compact: boolean } {
  const runs = (m: 'budget' | 'compact') => active.has(m) || (protocol === 'responses' && active.has(`responses-${m}`));
  return { budget: runs('budget'), compact: runs('compact') && compactEnabled };
}

/** Throws E_CONFIG_RESPONSES_HOOK or E_CONFIG_BUDGET_WINDOW (with `where` to fix it) for a profile the model config cannot serve. */
export function checkProfileConfig(
  config: ModelConfig,
  active: ReadonlySet<ModuleName>,
  compactEnabled: boolean,
  where: string,
): void {
  checkResponsesHook(config, [...active]);
  const on = budgetModulesOn(active, config.protocol, compactEnabled);
  checkBudgetConfig(config, on.budget || on.compact, where);
}
