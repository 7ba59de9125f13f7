// The default context budget (seed 000 §7). The core has no model capacity table: capacity comes from the model
// config's `budget`. Trigger = min(window × threshold, window − max_tokens − safety × window). Estimates use the
// previous response's usage as an anchor when it covers a prefix of the current history, plus a conservative
// UTF-8 byte count (one token per byte) for everything added since; without a valid anchor, bytes for all.
import type { ModelConfig } from '../config';
import type { BudgetEstimate, BudgetSettings } from '../hooks';
import { toolBudget } from '../modules';
import type { Message, ToolSchema, Usage } from '../contracts';

export { requestMaxTokens } from '../modules';

export const DEFAULT_BUDGET: Omit<BudgetSettings, 'context_window' | 'max_tokens'> = {
  safety: 0.02,
  tool_ratio: 0.02,
  threshold: 0.8,
  image_tokens: 1600,
};

const encoder = new TextEncoder();

/** Top-level `_` metadata is host-side only, except the replay fields that do go over the wire. */
const WIRE_META = new Set(['_responses_output', '_anthropic_content']);

function wireView(message: Message): unknown {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message)) if (!k.startsWith('_') || WIRE_META.has(k)) out[k] = v;
  return out;
}

function bytesOf(value: unknown, seen: { images: number } = { images: 0 }): number {
  return encoder.encode(
    JSON.stringify(value, (key, v) => {
      // Image payloads are planned with image_tokens, not counted as text bytes.
      if (key === 'url' && typeof v === 'string' && v.startsWith('data:image/')) {
        seen.images++;
        return '';
      }
      return v;
    }),
  ).length;
}

/** The budget a model config asks for (seed 000 §4 `budget`), or null without context_window (then checkProfileConfig refuses a profile that meters or compacts). */
export function budgetOf(config: ModelConfig): BudgetSettings | null {
  const b = config.budget;
  if (!b || b.context_window === undefined) return null;
  return {
    context_window: b.context_window,
    max_tokens: b.output_reserve ?? config.max_tokens,
    threshold: b.threshold ?? DEFAULT_BUDGET.threshold,
    safety: b.safety_ratio ?? DEFAULT_BUDGET.safety,
    tool_ratio: b.tool_output_ratio ?? DEFAULT_BUDGET.tool_ratio,
    image_tokens: b.image_tokens ?? DEFAULT_BUDGET.image_tokens,
  };
}

export function estimateBytes(messages: readonly Message[], settings: BudgetSettings): number {
  const seen = { images: 0 };
  let total = 0;
  for (const m of messages) total += bytesOf(wireView(m), seen);
  return total + seen.images * settings.image_tokens;
}

/** UTF-8 bytes of the tool schemas as sent (the same count the estimate adds). */
export const toolSchemaBytes = (tools: readonly ToolSchema[]): number => bytesOf(tools);

export function triggerOf(b: BudgetSettings): number {
  return Math.floor(
    Math.min(b.context_window * b.threshold, b.context_window - b.max_tokens - b.safety * b.context_window),
  );
}

/** A usage anchor: the tokens the provider reported for a history of `length` messages (input + output). */
export interface UsageAnchor {
  length: number;
  /** The exact message objects covered, to confirm the prefix is unchanged. */
  last: Message | undefined;
  tokens: number;
}

export function anchorFrom(usage: Usage | undefined, history: readonly Message[]): UsageAnchor | null {
  const input = usage?.input_tokens;
  const output = usage?.output_tokens;
  if (!Number.isSafeInteger(input) || !Number.isSafeInteger(output) || input! < 0 || output! < 0) return null;
  return { length: history.length, last: history[history.length - 1], tokens: input! + output! };
}

export function estimateBudget(
  settings: BudgetSettings,
  history: readonly Message[],
  tools: readonly ToolSchema[],
  pendingCalls: number,
  anchor: UsageAnchor | null,
): BudgetEstimate {
  const trigger = triggerOf(settings);
  const toolBytes = bytesOf(tools);
  let estimate: number;
  let method = 'utf8_bytes';
  if (anchor && anchor.length <= history.length && history[anchor.length - 1] === anchor.last) {
    estimate = anchor.tokens + estimateBytes(history.slice(anchor.length), settings) + toolBytes;
    method = 'usage';
  } else {
    estimate = estimateBytes(history, settings) + toolBytes;
  }
  // The same split as the budget module's (one rule, seed 000 §7).
  return {
    fits: estimate <= trigger,
    estimate,
    trigger,
    tool_budget: toolBudget(settings, trigger - estimate, pendingCalls),
    method,
  };
}

/** The verdict when no budget is configured: everything fits, nothing is truncated by budget. */
export const UNBUDGETED: BudgetEstimate = {
  fits: true,
  estimate: 0,
  trigger: Number.MAX_SAFE_INTEGER,
  tool_budget: Number.MAX_SAFE_INTEGER,
  method: 'none',
};

/** Cuts text to at most `maxBytes` UTF-8 bytes (on a character boundary) and says how much was left out. */
export function truncateToBytes(text: string, maxBytes: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= maxBytes) return text;
  let cut = Math.max(0, maxBytes - 80);
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  const kept = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(0, cut));
  return `${kept}\n[output truncated: ${bytes.length - cut} of ${bytes.length} bytes left out by the context budget]`;
}
