// The model config file of seed 000 §4 as the headless runner reads it. This is the ONE place the CLI parses its
// config: when web/core/config (the shared parser) lands, `parseModelConfig` becomes a call into it.
//
// Defaults where the seed gives none: protocol "openai", max_tokens 4096, use_max_tokens false, extra_body {},
// io_limit_bytes 1 MiB, provider_operations false, no budget (requests are not budget-checked without one;
// the core has no model capacity table).
import { HarnessError } from '../errors';
import type { BudgetSettings } from '../hooks';
import { compileSchema } from '../tools/validate';
import { DEFAULT_BUDGET } from '../agent/budget';

export interface ModelConfig {
  protocol: string;
  base_url: string;
  model: string;
  api_key_env: string | null;
  max_tokens: number;
  use_max_tokens: boolean;
  budget: BudgetSettings | null;
  extra_body: Record<string, unknown>;
  plugins: string | null;
  io_limit_bytes: number;
  provider: { exec: string[]; cwd?: string } | null;
  provider_operations: boolean;
}

export const DEFAULT_MAX_TOKENS = 4096;
export const DEFAULT_IO_LIMIT_BYTES = 1024 * 1024;

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['base_url', 'model'],
  properties: {
    protocol: { type: 'string', minLength: 1, maxLength: 64 },
    base_url: { type: 'string', pattern: '^https?://' },
    model: { type: 'string', minLength: 1, maxLength: 256 },
    api_key_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,127}$' },
    max_tokens: { type: 'integer', minimum: 1, maximum: 10_000_000 },
    use_max_tokens: { type: 'boolean' },
    budget: {
      type: 'object',
      additionalProperties: false,
      required: ['context_window'],
      properties: {
        context_window: { type: 'integer', minimum: 1 },
        max_tokens: { type: 'integer', minimum: 1 },
        safety: { type: 'number', minimum: 0, maximum: 0.5 },
        tool_ratio: { type: 'number', minimum: 0, maximum: 1 },
        threshold: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        image_tokens: { type: 'integer', minimum: 0 },
        // Seed 000 §7: only the UTF-8 byte estimator exists; named BPE tokenizers fail instead of degrading.
        tokenizer: { const: 'utf8_bytes' },
      },
    },
    extra_body: { type: 'object' },
    plugins: { type: 'string', minLength: 1 },
    io_limit_bytes: { type: 'integer', minimum: 1024, maximum: 48 * 1024 * 1024 },
    provider: {
      type: 'object',
      additionalProperties: false,
      required: ['exec'],
      properties: { exec: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } }, cwd: { type: 'string' } },
    },
    provider_operations: { type: 'boolean' },
  },
};

const check = compileSchema(schema, 'config');

/** Validates the parsed JSON of a model config file; unknown keys are refused with their path. */
export function parseModelConfig(value: unknown, file: string): ModelConfig {
  const problems = check(value);
  if (problems.length > 0) {
    throw new HarnessError('E_CONFIG_INVALID', `The model config ${file} is invalid: ${problems.slice(0, 4).join('; ')}. See \`i --help\` for the fields.`, { file, problems });
  }
  const v = value as Record<string, unknown> & { budget?: Record<string, number> };
  const maxTokens = (v.max_tokens as number | undefined) ?? DEFAULT_MAX_TOKENS;
  const budget: BudgetSettings | null = v.budget
    ? {
        ...DEFAULT_BUDGET,
        ...Object.fromEntries(Object.entries(v.budget).filter(([k]) => k !== 'tokenizer')),
        context_window: v.budget.context_window!,
        max_tokens: v.budget.max_tokens ?? maxTokens,
      }
    : null;
  if (budget && budget.max_tokens >= budget.context_window) {
    throw new HarnessError('E_CONFIG_INVALID', `The model config ${file} is invalid: At config.budget: max_tokens (${budget.max_tokens}) must be smaller than context_window (${budget.context_window}).`, { file });
  }
  return {
    protocol: (v.protocol as string | undefined) ?? 'openai',
    base_url: (v.base_url as string).replace(/\/+$/, ''),
    model: v.model as string,
    api_key_env: (v.api_key_env as string | undefined) ?? null,
    max_tokens: maxTokens,
    use_max_tokens: (v.use_max_tokens as boolean | undefined) ?? false,
    budget,
    extra_body: (v.extra_body as Record<string, unknown> | undefined) ?? {},
    plugins: (v.plugins as string | undefined) ?? null,
    io_limit_bytes: (v.io_limit_bytes as number | undefined) ?? DEFAULT_IO_LIMIT_BYTES,
    provider: (v.provider as ModelConfig['provider']) ?? null,
    provider_operations: (v.provider_operations as boolean | undefined) ?? false,
  };
}
