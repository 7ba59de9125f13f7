// What a person can see of a turn's cost and context (issue 15): the shapes shared by the loop (which measures),
// the usage folder (prices, totals, the meter, the breakdown), the agent Worker and the UI. Plain data only: every
// value here crosses the Worker boundary and is stored in the session log.

/**
 * One model call's usage, as stamped on the assistant message (`_usage`) and sent in the `usage` event.
 * Token figures follow seed 000 §8's accounting: `input_tokens` is ALL input (OpenAI/Responses cached ⊂ input;
 * Anthropic plain + cache read + cache creation; DeepSeek hit + miss), `cache_read_tokens` the part served from the
 * cache, `cache_write_tokens` what was written to it (Anthropic cache creation; never a hit).
 */
export interface StepUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens?: number;
  /**
   * Which figures the provider reported. A figure it did not report is an estimate (UTF-8 bytes of what was sent or
   * received, the budget's conservative estimate) and is shown as one; cache figures are 0 when not reported.
   */
  reported: { input: boolean; output: boolean; cache: boolean };
  /** Wall time of the model call, first byte sent to last byte received (ms). */
  duration_ms: number;
  protocol: string;
  model: string;
}

/** The size of the next request against the model's window (tokens). */
export interface ContextSize {
  tokens: number;
  /** The context window, or null when no budget is configured for the model. */
  window: number | null;
  /** Where compaction triggers (BudgetEstimate.trigger), or null without a budget. */
  trigger: number | null;
  /** True when `tokens` is an estimate (no usage anchor from the provider's last answer). */
  estimated: boolean;
}

/** What one compaction did; on the summary message (`_meta.compaction`) and in the `compacted` event. */
export interface CompactionInfo {
  /** Stable id (UUID) so the UI can ask for the folded originals from the session log. */
  id: string;
  /** Messages replaced by the summary (they stay in the session log). */
  folded_messages: number;
  /** How many of those were tool results. */
  folded_tool_results: number;
  /** Estimated tokens of the model's view before and after. */
  tokens_before: number;
  tokens_after: number;
  /** The person's focus text (`/compact keep the file list`), when given. */
  focus?: string;
  /** True for `/compact` or `i --compact`; false when the budget triggered it. */
  manual: boolean;
  /** Epoch ms. */
  at: number;
}

/** Prices in US dollars per million tokens. A missing cache price means that part is charged as plain input. */
export interface ModelPrice {
  /** Exact model name as sent to the provider (case-insensitive match). */
  model: string;
  input: number;
  output: number;
  cache_read?: number;
  cache_write?: number;
}

export interface PriceTable {
  /** When these prices were checked (YYYY-MM-DD); presets carry their date, the person's edits today's. */
  as_of: string;
  prices: ModelPrice[];
}

/** Sums over assistant messages' `_usage`. */
export interface UsageTotals {
  steps: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** Dollars, or null when no step had a price. */
  cost: number | null;
  /** Steps whose model had no price (their cost is not in `cost`). */
  unpriced_steps: number;
  /** Steps with any estimated figure. */
  estimated_steps: number;
}

export type ContextPartKind =
  | 'system'
  | 'instructions'
  | 'memory'
  | 'skills'
  | 'tools:builtin'
  | 'tools:plugins'
  | 'tools:bridge'
  | 'tools:mcp'
  | 'history'
  | 'images';

/** The next request, part by part (the `/context` view). */
export interface ContextBreakdown {
  size: ContextSize;
  parts: Array<{ kind: ContextPartKind; tokens: number; items: number }>;
  /** What a compaction would fold now (messages after the fixed head, before the kept recent ones), or null. */
  would_fold: { messages: number; tool_results: number; tokens: number } | null;
}
