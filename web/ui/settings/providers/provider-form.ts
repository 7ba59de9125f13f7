// The Model tab's form ⇄ the seed 000 §4 model config object. Pure (tested in Node): numbers and extra_body are
// typed as text in the form and checked here with errors that name the field; the whole config is then validated
// by web/core/config, the same parser headless `i` uses. At the end, the form's save and Test connection, shared by
// Settings → Model and the first-run setup (web/ui/onboarding) so the two can never store or test differently.
import { HarnessError } from '../../../core/contracts';
import {
  appSmokeStats,
  findPreset,
  getSecret,
  PROVIDER_PRESETS,
  setSecret,
  testConnection,
  type ConnectionReport,
  type HarnessDb,
  type ProviderPreset,
  type Route,
} from '../../../core/page';
import { checkModelConfig, saveModel } from '../../../core/page';
import { pairedBridge } from '../../../core/page';
import { appProviderAdapter, connectedBridge } from '../../../core/page';

export interface ProviderForm {
  preset: string;
  protocol: string;
  base_url: string;
  model: string;
  api_key_env: string;
  max_tokens: string;
  use_max_tokens: boolean;
  context_window: string;
  threshold: string;
  output_reserve: string;
  extra_body: string;
  route: Route;
  /** How tools reach the model (model config `tool_protocol`). */
  tool_protocol: 'native' | 'json';
  /** Model config `provider_operations` (seed 003: the second switch provider Files need), Settings → Model → Images. */
  provider_operations: boolean;
}

export const CUSTOM_PRESET = 'custom';

export function formFromPreset(preset: ProviderPreset, current?: ProviderForm): ProviderForm {
  return {
    preset: preset.id,
    protocol: preset.protocol,
    base_url: preset.base_url,
    model: current?.preset === preset.id ? current.model : '',
    api_key_env: preset.api_key_env ?? '',
    max_tokens: current?.max_tokens ?? '4096',
    use_max_tokens: preset.use_max_tokens,
    context_window: current?.context_window ?? '',
    threshold: current?.threshold ?? '',
    output_reserve: current?.output_reserve ?? '',
    extra_body: current?.extra_body ?? '{}',
    route: preset.route,
    tool_protocol: current?.tool_protocol ?? 'native',
    provider_operations: current?.provider_operations ?? false,
  };
}

export const emptyForm = (): ProviderForm => formFromPreset(PROVIDER_PRESETS[0]!);

export function formFromConfig(config: Record<string, unknown>, preset: string | null): ProviderForm {
  const c = checkModelConfig(config);
  const known = preset && findPreset(preset);
  return {
    preset: known ? known.id : CUSTOM_PRESET,
    protocol: c.protocol,
    base_url: c.base_url,
    model: c.model,
    api_key_env: c.api_key_env ?? '',
    max_tokens: String(c.max_tokens),
    use_max_tokens: c.use_max_tokens,
    context_window: c.budget?.context_window !== undefined ? String(c.budget.context_window) : '',
    threshold: c.budget?.threshold !== undefined ? String(c.budget.threshold) : '',
    output_reserve: c.budget?.output_reserve !== undefined ? String(c.budget.output_reserve) : '',
    extra_body: JSON.stringify(c.extra_body, null, 2),
    route: c.route ?? (known ? known.route : 'direct'),
    tool_protocol: c.tool_protocol,
    provider_operations: c.provider_operations,
  };
}

/**
 * A name to store a key under when the person types a key without one: the preset's own (OPENAI_API_KEY), else one
 * from the server's host ("api.example.com" → EXAMPLE_API_KEY, a local address → LOCAL_API_KEY). Shown in the
 * field, where the person may change it.
 */
export function suggestKeyName(form: Pick<ProviderForm, 'preset' | 'base_url'>): string {
  const fromPreset = findPreset(form.preset)?.api_key_env;
  if (fromPreset) return fromPreset;
  const host = URL.canParse(form.base_url.trim()) ? new URL(form.base_url.trim()).hostname : null;
  if (host === null) return 'API_KEY';
  if (host === 'localhost' || /^[\d.]+$/.test(host) || host.startsWith('[')) return 'LOCAL_API_KEY';
  const labels = host.split('.').filter((l) => l && l !== 'www' && l !== 'api');
  const main = labels.length > 1 ? labels[labels.length - 2]! : (labels[0] ?? '');
  const word = main
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return word && /^[A-Z]/.test(word) ? `${word}_API_KEY` : 'API_KEY';
}

function numberField(text: string, field: string, integer: boolean): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `At ${field}: "${t}" is not ${integer ? 'a whole number' : 'a number'}.`,
      { path: field },
    );
  }
  return n;
}

export function parseExtraBody(text: string): Record<string, unknown> {
  const t = text.trim();
  if (t === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch (error) {
    throw new HarnessError(
      'E_EXTRA_BODY_JSON',
      `At extra_body: not valid JSON (${error instanceof Error ? error.message : String(error)}). Write an object such as {"temperature": 0.2}.`,
      { path: 'extra_body' },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HarnessError('E_EXTRA_BODY_JSON', 'At extra_body: expected a JSON object such as {"temperature": 0.2}.', {
      path: 'extra_body',
    });
  }
  return value as Record<string, unknown>;
}

/** The config object to store (only the fields the person set), validated; throws HarnessError naming the field. */
export function configFromForm(form: ProviderForm): Record<string, unknown> {
  const config: Record<string, unknown> = {
    protocol: form.protocol,
    base_url: form.base_url.trim(),
    model: form.model.trim(),
  };
  if (form.api_key_env.trim()) config.api_key_env = form.api_key_env.trim();
  const maxTokens = numberField(form.max_tokens, 'max_tokens', true);
  if (maxTokens !== undefined) config.max_tokens = maxTokens;
  config.use_max_tokens = form.use_max_tokens;
  const budget: Record<string, number> = {};
  const window = numberField(form.context_window, 'budget.context_window', true);
  const threshold = numberField(form.threshold, 'budget.threshold', false);
  const reserve = numberField(form.output_reserve, 'budget.output_reserve', true);
  if (window !== undefined) budget.context_window = window;
  if (threshold !== undefined) budget.threshold = threshold;
  if (reserve !== undefined) budget.output_reserve = reserve;
  if (Object.keys(budget).length) {
    if (budget.context_window === undefined)
      throw new HarnessError(
        'E_CONFIG_INVALID',
        'At budget.context_window: required when other budget fields are set (the core has no table of model sizes).',
        { path: 'budget.context_window' },
      );
    config.budget = budget;
  }
  const extra = parseExtraBody(form.extra_body);
  if (Object.keys(extra).length) config.extra_body = extra;
  config.route = form.route;
  // Only a switch away from the default is stored, like the other optional fields.
  if (form.tool_protocol === 'json') config.tool_protocol = 'json';
  if (form.provider_operations) config.provider_operations = true;
  checkModelConfig(config);
  return config;
}

/** Stores a typed key in the secrets store under the form's key name; false when there is no name or no key. */
export async function storeFormKey(db: HarnessDb, form: ProviderForm, key: string): Promise<boolean> {
  const name = form.api_key_env.trim();
  if (!name || !key) return false;
  await setSecret(db, name, key);
  return true;
}

/** Validates the form, stores the key, then saves the config for a workspace or (null) globally. */
export async function saveModelForm(
  db: HarnessDb,
  scope: string | null,
  form: ProviderForm,
  key: string,
): Promise<void> {
  const config = configFromForm(form);
  await storeFormKey(db, form, key);
  await saveModel(db, scope, { config, preset: form.preset === CUSTOM_PRESET ? null : form.preset });
}

/**
 * Test connection: the seed 000 §10 smoke policy (web/core/smoke: no tools, 32-token cap, tool calls refused,
 * cache statistics observed into their own record) with the form's config and the stored (or just typed) key. A bad
 * form throws before any request; a provider failure comes back as the report's error.
 */
export async function testModelForm(db: HarnessDb, form: ProviderForm, key: string): Promise<ConnectionReport> {
  const config = checkModelConfig(configFromForm(form));
  await storeFormKey(db, form, key);
  // A custom protocol is tested through the paired bridge's provider worker, like a turn.
  const adapter = appProviderAdapter(config, () => connectedBridge(db));
  return testConnection(
    {
      protocol: config.protocol,
      base_url: config.base_url,
      model: config.model,
      api_key_env: config.api_key_env,
      use_max_tokens: config.use_max_tokens,
      extra_body: config.extra_body,
      route: config.route ?? 'direct',
      ...(adapter ? { adapter } : {}),
    },
    { getSecret: (name) => getSecret(db, name), getBridge: () => pairedBridge(db), stats: appSmokeStats(db) },
  );
}
