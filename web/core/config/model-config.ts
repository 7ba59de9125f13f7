// The model config file of seed 000 §4 (headless `i --config FILE`, importable in the app). Strict: unknown keys
// are refused with their path, every value is checked, and defaults are filled in so callers see one shape.
//
// Defaults: protocol "openai"; api_key_env null (no key: local servers); max_tokens 4096; use_max_tokens false;
// budget null (no budget module data); extra_body {}; plugins null; io_limit_bytes 1 MiB; provider null (built-in
// adapter); provider_operations false; route null (the app uses the preset's route, else "direct").
// tool_view absent: the model sees every registered tool, within the limits (web/core/tool-views).
// tool_protocol "native" (the provider's tool calling); "json": the JSON action protocol (web/core/agent/json-actions).
import { HarnessError } from '../contracts';
import { isBuiltinProtocol, validateExtraBody, type Route } from '../providers';
import { isPublicSecretName } from '../settings';
import { parseToolViewConfig, type ToolViewConfig } from '../tool-views';

export interface BudgetConfig {
  /** The model's context window in tokens; required when the budget module is on (seed 000 §7 has no model table). */
  context_window?: number;
  /** Tokens kept free for the answer; defaults to max_tokens. */
  output_reserve?: number;
  /** Fraction of the window that triggers compaction (default 0.8). */
  threshold?: number;
  /** Safety fraction of the window (default 0.02). */
  safety_ratio?: number;
  /** Fraction of the window for one batch of tool output (default 0.02). */
  tool_output_ratio?: number;
  /** Tokens planned per image (usage of earlier turns cannot predict new images). */
  image_tokens?: number;
  /** Only the conservative UTF-8 byte estimator exists; the removed BPE names fail loudly. */
  tokenizer?: 'utf8_bytes';
}

/** An explicit provider binding: a native worker (CLI) or a bridge worker id (browser). It is not a vendor name. */
export type ProviderBinding = { exec: string[]; cwd?: string } | { worker: string };

export interface ModelConfig {
  protocol: string;
  base_url: string;
  model: string;
  api_key_env: string | null;
  max_tokens: number;
  use_max_tokens: boolean;
  budget: BudgetConfig | null;
  extra_body: Record<string, unknown>;
  plugins: string | null;
  io_limit_bytes: number;
  provider: ProviderBinding | null;
  provider_operations: boolean;
  /** Seed 003: lets a trusted worker's `cleanup: true` DELETE of its own uploads run unattended; present only when true. */
  provider_cleanup?: true;
  /** i-specific: how the browser reaches the provider. Ignored by the CLI (no CORS there). */
  route: Route | null;
  /** How tools reach the model: the provider's `tools` field ("native") or the JSON action protocol ("json"). */
  tool_protocol: 'native' | 'json';
  /** Seed 002 tool view: `{"names": [...], "groups": [...]}`, the tools the model sees; absent = all (within limits). */
  tool_view?: ToolViewConfig;
}

export const MODEL_CONFIG_DEFAULTS = {
  protocol: 'openai',
  api_key_env: null,
  max_tokens: 4096,
  use_max_tokens: false,
  budget: null,
  extra_body: {},
  plugins: null,
  io_limit_bytes: 1024 * 1024,
  provider: null,
  provider_operations: false,
  route: null,
  tool_protocol: 'native',
} as const;

const MAX_IO_LIMIT = 48 * 1024 * 1024;
const TOP_KEYS = [
  'protocol',
  'base_url',
  'model',
  'api_key_env',
  'max_tokens',
  'use_max_tokens',
  'budget',
  'extra_body',
  'plugins',
  'io_limit_bytes',
  'provider',
  'provider_operations',
  'provider_cleanup',
  'route',
  'tool_view',
  'tool_protocol',
];
const BUDGET_KEYS = [
  'context_window',
  'output_reserve',
  'threshold',
  'safety_ratio',
  'tool_output_ratio',
  'image_tokens',
  'tokenizer',
];
const REMOVED_TOKENIZERS = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'];

const invalid = (path: string, what: string) => new HarnessError('E_CONFIG_INVALID', `At ${path}: ${what}`, { path });

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function strictKeys(value: Obj, allowed: string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (allowed.includes(key)) continue;
    const at = path ? `${path}.${key}` : key;
    if (/^api[_-]?key$|secret|password|token$/i.test(key)) {
      throw new HarnessError(
        'E_CONFIG_UNKNOWN_KEY',
        `At ${at}: keys are never stored in the config file. Put the key in the credentials store (or an environment variable) and name it in api_key_env.`,
        { path: at },
      );
    }
    throw new HarnessError('E_CONFIG_UNKNOWN_KEY', `At ${at}: unknown key. Allowed here: ${allowed.join(', ')}.`, {
      path: at,
    });
  }
}

function int(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw invalid(path, `expected an integer from ${min} to ${max}.`);
  return v;
}

function ratio(v: unknown, path: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
    throw invalid(path, `expected a number from ${min} to ${max}.`);
  return v;
}

// "localhost:11434" parses as a URL with the scheme "localhost:"; say what is missing instead of "not http".
const HOST_PORT_WITHOUT_SCHEME = /^[A-Za-z0-9.-]+:[0-9]+(?:\/|$)/;

function checkBaseUrl(v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '')
    throw invalid('base_url', 'expected the API address, e.g. "https://api.openai.com/v1".');
  if (HOST_PORT_WITHOUT_SCHEME.test(v.trim()))
    throw invalid('base_url', `"${v}" has no http:// or https:// in front. Write "http://${v.trim()}" (or https://).`);
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw invalid('base_url', `"${v}" is not an absolute URL. Use a full http:// or https:// address.`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw invalid('base_url', `only http and https addresses are allowed, not "${u.protocol}".`);
  if (u.username || u.password)
    throw invalid('base_url', 'remove the user name/password; keys belong in the credentials store.');
  if (u.search || u.hash)
    throw invalid('base_url', 'remove the query string and fragment; the adapter appends the endpoint path.');
  return v.replace(/\/+$/, '');
}

function checkBudget(v: unknown): BudgetConfig | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v)) throw invalid('budget', 'expected an object such as {"context_window": 128000}.');
  strictKeys(v, BUDGET_KEYS, 'budget');
  const b: BudgetConfig = {};
  if (v.context_window !== undefined) b.context_window = int(v.context_window, 'budget.context_window', 1, 100_000_000);
  if (v.output_reserve !== undefined) b.output_reserve = int(v.output_reserve, 'budget.output_reserve', 0, 100_000_000);
  if (v.threshold !== undefined) b.threshold = ratio(v.threshold, 'budget.threshold', 0.05, 1);
  if (v.safety_ratio !== undefined) b.safety_ratio = ratio(v.safety_ratio, 'budget.safety_ratio', 0, 0.5);
  if (v.tool_output_ratio !== undefined)
    b.tool_output_ratio = ratio(v.tool_output_ratio, 'budget.tool_output_ratio', 0, 1);
  if (v.image_tokens !== undefined) b.image_tokens = int(v.image_tokens, 'budget.image_tokens', 0, 10_000_000);
  if (v.tokenizer !== undefined) {
    if (typeof v.tokenizer === 'string' && REMOVED_TOKENIZERS.includes(v.tokenizer)) {
      throw new HarnessError(
        'E_CONFIG_TOKENIZER_REMOVED',
        `At budget.tokenizer: "${v.tokenizer}" was removed; the budget uses the conservative UTF-8 byte estimate. Remove the field or set "utf8_bytes".`,
        {
          path: 'budget.tokenizer',
        },
      );
    }
    if (v.tokenizer !== 'utf8_bytes')
      throw invalid('budget.tokenizer', 'the only tokenizer is "utf8_bytes" (or leave it out).');
    b.tokenizer = 'utf8_bytes';
  }
  return b;
}

function checkProvider(v: unknown): ProviderBinding | null {
  if (v === undefined || v === null) return null;
  if (!isObj(v))
    throw invalid('provider', 'expected a worker binding {"exec": [...], "cwd": "..."} or {"worker": "id"}.');
  if ('worker' in v) {
    strictKeys(v, ['worker'], 'provider');
    if (typeof v.worker !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(v.worker))
      throw invalid('provider.worker', 'expected a bridge worker id of 1–64 letters, digits, - or _.');
    return { worker: v.worker };
  }
  strictKeys(v, ['exec', 'cwd'], 'provider');
  if (!Array.isArray(v.exec) || v.exec.length === 0 || v.exec.some((a) => typeof a !== 'string' || a === '')) {
    throw invalid('provider.exec', 'expected a non-empty argv array of strings (never a shell command line).');
  }
  const binding: ProviderBinding = { exec: v.exec as string[] };
  if (v.cwd !== undefined) {
    if (typeof v.cwd !== 'string' || v.cwd === '') throw invalid('provider.cwd', 'expected a directory path.');
    binding.cwd = v.cwd;
  }
  return binding;
}

/** Parses and validates a model config (object or JSON text). Throws HarnessError with the offending path. */
export function parseModelConfig(input: unknown): ModelConfig {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      throw new HarnessError(
        'E_CONFIG_JSON',
        `The model config is not valid JSON (${e instanceof Error ? e.message : String(e)}). Fix the file and try again.`,
      );
    }
  }
  if (!isObj(value)) throw invalid('(root)', 'expected a JSON object.');
  strictKeys(value, TOP_KEYS, '');

  const protocol = value.protocol === undefined ? MODEL_CONFIG_DEFAULTS.protocol : value.protocol;
  if (typeof protocol !== 'string' || !/^[a-z0-9][a-z0-9_.-]{0,63}$/.test(protocol))
    throw invalid('protocol', 'expected a selector such as "openai", "deepseek", "anthropic" or "responses".');
  const provider = checkProvider(value.provider);
  // Any other selector is a custom protocol (seed 003): a provider worker interprets it — the `provider` binding or
  // the `plugins` manifest's provider in headless i, the paired bridge's provider in the app. Where none is
  // available the run says so; it never falls back to a built-in adapter.
  // protocol "browser" (issue 21): the model runs in the tab (web/core/browser-model); `model` names the stored
  // GGUF, there is no address or key, and tools always go through the JSON action protocol.
  const inBrowser = protocol === 'browser';
  if (inBrowser && value.tool_protocol === 'native')
    throw invalid('tool_protocol', 'a model in the browser has no native tool calling; use "json" (or leave it out).');
  if (inBrowser && value.api_key_env !== undefined && value.api_key_env !== null)
    throw invalid('api_key_env', 'a model in the browser needs no key; remove api_key_env.');
  const base_url =
    inBrowser && (value.base_url === undefined || value.base_url === '' || value.base_url === 'browser:local')
      ? 'browser:local'
      : checkBaseUrl(value.base_url);
  if (typeof value.model !== 'string' || value.model.trim() === '' || value.model.length > 256)
    throw invalid('model', 'expected the model name, e.g. "gpt-4.1".');
  let api_key_env: string | null = null;
  if (value.api_key_env !== undefined && value.api_key_env !== null) {
    if (typeof value.api_key_env !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(value.api_key_env)) {
      throw invalid(
        'api_key_env',
        'expected the NAME of an environment variable / credential entry (letters, digits, _), never the key itself.',
      );
    }
    if (!isPublicSecretName(value.api_key_env)) {
      throw new HarnessError(
        'E_CONFIG_RESERVED_SECRET',
        `At api_key_env: "${value.api_key_env}" is reserved for the app's own credentials (the bridge token) and is never sent to a provider. Name the provider's own key, such as OPENAI_API_KEY.`,
        { path: 'api_key_env', name: value.api_key_env },
      );
    }
    api_key_env = value.api_key_env;
  }
  const max_tokens =
    value.max_tokens === undefined
      ? MODEL_CONFIG_DEFAULTS.max_tokens
      : int(value.max_tokens, 'max_tokens', 1, 10_000_000);
  const bool = (key: string, dflt: boolean) => {
    const v = value[key];
    if (v === undefined) return dflt;
    if (typeof v !== 'boolean') throw invalid(key, 'expected true or false.');
    return v;
  };
  // Built-in providers refuse reserved fields; a custom provider enforces its own rules (seed 003), but no
  // protocol may carry credentials in extra_body.
  const extra_body = validateExtraBody(
    isBuiltinProtocol(protocol) && !provider ? protocol : `custom:${protocol}`,
    value.extra_body ?? {},
    'extra_body',
  );
  let plugins: string | null = null;
  if (value.plugins !== undefined && value.plugins !== null) {
    if (typeof value.plugins !== 'string' || value.plugins === '')
      throw invalid(
        'plugins',
        'expected the path of a desktop manifest (tools, hooks, provider), relative to this file, e.g. "desktop.json".',
      );
    plugins = value.plugins;
  }
  let route: Route | null = null;
  if (value.route !== undefined && value.route !== null) {
    if (value.route !== 'direct' && value.route !== 'bridge') throw invalid('route', 'expected "direct" or "bridge".');
    route = value.route;
  }
  return {
    protocol,
    base_url,
    model: value.model,
    api_key_env,
    max_tokens,
    use_max_tokens: bool('use_max_tokens', MODEL_CONFIG_DEFAULTS.use_max_tokens),
    budget: checkBudget(value.budget),
    extra_body,
    plugins,
    io_limit_bytes:
      value.io_limit_bytes === undefined
        ? MODEL_CONFIG_DEFAULTS.io_limit_bytes
        : int(value.io_limit_bytes, 'io_limit_bytes', 1024, MAX_IO_LIMIT),
    provider,
    provider_operations: bool('provider_operations', MODEL_CONFIG_DEFAULTS.provider_operations),
    ...(bool('provider_cleanup', false) ? { provider_cleanup: true as const } : {}),
    route,
    tool_protocol: inBrowser ? 'json' : toolProtocolOf(value.tool_protocol),
    ...(value.tool_view !== undefined ? { tool_view: parseToolViewConfig(value.tool_view, 'tool_view') } : {}),
  };
}

function toolProtocolOf(v: unknown): 'native' | 'json' {
  if (v === undefined) return MODEL_CONFIG_DEFAULTS.tool_protocol;
  if (v !== 'native' && v !== 'json')
    throw invalid(
      'tool_protocol',
      'expected "native" (the provider\'s tool calling) or "json" (the JSON action protocol, for models without tool calling).',
    );
  return v;
}
