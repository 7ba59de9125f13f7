// The budget policy's configuration (seed 000 §7), from the core API config's `budget` plus its `max_tokens`:
// context_window (required: the core has no capacity table), output_reserve (default max_tokens), threshold (.8),
// safety_ratio (.02), tool_output_ratio (.02), image_tokens (1600), tokenizer (omitted or "utf8_bytes"). The BPE
// tokenizers were removed: naming one fails loudly instead of silently using another estimator.
import { HarnessError } from '../../contracts';
import type { BudgetSettings } from '../../hooks';

export const REMOVED_TOKENIZERS = ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base'] as const;
export const BUDGET_DEFAULTS = { threshold: 0.8, safety: 0.02, tool_ratio: 0.02, image_tokens: 1600 } as const;

const KEYS = [
  'context_window',
  'output_reserve',
  'threshold',
  'safety_ratio',
  'tool_output_ratio',
  'image_tokens',
  'tokenizer',
];
const fail = (at: string, message: string) => new HarnessError('E_BUDGET_CONFIG', `At ${at}: ${message}`, { at });

function int(v: unknown, at: string, min: number, max: number): number {
  if (!Number.isSafeInteger(v) || (v as number) < min || (v as number) > max)
    throw fail(at, `expected an integer from ${min} to ${max}.`);
  return v as number;
}

function ratio(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !(v >= min && v <= max)) throw fail(at, `expected a number from ${min} to ${max}.`);
  return v;
}

/** Validates `budget` (strict keys) and resolves it with the model's max_tokens into the settings the hooks carry. */
export function parseBudgetConfig(value: unknown, maxTokens: number, at = 'budget'): BudgetSettings {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail(at, 'expected an object such as {"context_window": 128000}.');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (!KEYS.includes(key)) throw fail(`${at}.${key}`, `unknown key; allowed: ${KEYS.join(', ')}.`);
  if (v.tokenizer !== undefined) {
    if ((REMOVED_TOKENIZERS as readonly unknown[]).includes(v.tokenizer)) {
      throw new HarnessError(
        'E_BUDGET_TOKENIZER_REMOVED',
        `At ${at}.tokenizer: "${String(v.tokenizer)}" was removed (no BPE tables ship with i); the budget uses the conservative UTF-8 byte estimate. Remove the field or set "utf8_bytes".`,
        { at: `${at}.tokenizer` },
      );
    }
    if (v.tokenizer !== 'utf8_bytes')
      throw fail(`${at}.tokenizer`, 'the only tokenizer is "utf8_bytes" (or leave the field out).');
  }
  if (v.context_window === undefined)
    throw fail(
      `${at}.context_window`,
      "the context window of the model is required (e.g. 128000); look it up in the provider's model documentation.",
    );
  const window = int(v.context_window, `${at}.context_window`, 1, 100_000_000);
  const reserve =
    v.output_reserve === undefined
      ? int(maxTokens, 'max_tokens', 0, 100_000_000)
      : int(v.output_reserve, `${at}.output_reserve`, 0, 100_000_000);
  if (reserve >= window)
    throw fail(`${at}`, `the output reserve (${reserve}) must be smaller than context_window (${window}).`);
  return {
    context_window: window,
    max_tokens: reserve,
    threshold: v.threshold === undefined ? BUDGET_DEFAULTS.threshold : ratio(v.threshold, `${at}.threshold`, 0.05, 1),
    safety: v.safety_ratio === undefined ? BUDGET_DEFAULTS.safety : ratio(v.safety_ratio, `${at}.safety_ratio`, 0, 0.5),
    tool_ratio:
      v.tool_output_ratio === undefined
        ? BUDGET_DEFAULTS.tool_ratio
        : ratio(v.tool_output_ratio, `${at}.tool_output_ratio`, 0, 1),
    image_tokens:
      v.image_tokens === undefined
        ? BUDGET_DEFAULTS.image_tokens
        : int(v.image_tokens, `${at}.image_tokens`, 0, 10_000_000),
  };
}

/** Where compaction triggers: min(window × threshold, window − max_tokens − safety × window). */
export function budgetTrigger(b: BudgetSettings): number {
  return Math.floor(
    Math.min(b.context_window * b.threshold, b.context_window - b.max_tokens - b.safety * b.context_window),
  );
}

/**
 * The one tool-budget split (seed 000 §7 "工具预算再按待执行调用数与剩余容量分配"), used by the loop's default
 * estimator and the budget module alike: the tool share of the window (window × tool_output_ratio), capped by what
 * is left below the trigger, divided over the pending calls. Never more than is left, so a batch cannot push the
 * next request over the trigger.
 */
export function toolBudget(
  settings: Pick<BudgetSettings, 'context_window' | 'tool_ratio'>,
  remaining: number,
  pendingCalls: number,
): number {
  const share = Math.min(Math.floor(settings.context_window * settings.tool_ratio), Math.max(0, remaining));
  return Math.floor(share / Math.max(1, pendingCalls));
}

/**
 * The output limit a request may ask for (seed 002 "输出 max_tokens 会被设置或收紧到 output_reserve 内"): the
 * configured max_tokens, tightened to the budget's output reserve when a budget is configured, so the body sent
 * never asks for more output than the budget kept free. At least 1: providers refuse a zero limit.
 */
export function requestMaxTokens(model: {
  max_tokens: number;
  budget: Pick<BudgetSettings, 'max_tokens'> | null;
}): number {
  return model.budget ? Math.max(1, Math.min(model.max_tokens, model.budget.max_tokens)) : model.max_tokens;
}
