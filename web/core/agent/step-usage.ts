// One model call's usage as a person sees it (issue 15): the provider's figures in seed 000 §8's accounting, the
// figures it did not report estimated the budget's conservative way (one token per UTF-8 byte), and the size of
// the next request against the window. Pure functions: the loop measures, these map.
import type { BudgetSettings } from '../hooks';
import type { AssistantMessage, Message, ToolSchema, Usage } from '../contracts';
import type { ContextSize, StepUsage } from '../contracts';
import { DEFAULT_BUDGET, estimateBudget, estimateBytes, toolSchemaBytes, triggerOf, type UsageAnchor } from './budget';

const count = (v: unknown): number | undefined =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined;
const rec = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Settings for estimating without a configured budget: the same estimator, no window. */
const UNLIMITED: BudgetSettings = { ...DEFAULT_BUDGET, context_window: Number.MAX_SAFE_INTEGER, max_tokens: 0 };

interface Reported {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

/**
 * The provider's figures in one accounting: input is ALL input. OpenAI Chat and Responses already count cached
 * tokens inside input; Anthropic reports plain input, cache read and cache creation apart (their sum is the input,
 * creation is a write, not a hit); DeepSeek partitions input into hit + miss.
 */
function reportedFigures(protocol: string, usage: Usage | undefined, raw: unknown): Reported {
  const u = usage ?? {};
  const out: Reported = {
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(u.cache_read_tokens),
    cacheWrite: count(u.cache_write_tokens),
    reasoning: count(u.reasoning_tokens),
  };
  if (protocol === 'anthropic' && out.input !== undefined) out.input += (out.cacheRead ?? 0) + (out.cacheWrite ?? 0);
  if (protocol === 'deepseek') {
    const r = rec(raw);
    const hit = count(r.prompt_cache_hit_tokens);
    const miss = count(r.prompt_cache_miss_tokens);
    // hit + miss is the whole input even when prompt_tokens is absent.
    if (hit !== undefined && miss !== undefined) {
      out.input = hit + miss;
      out.cacheRead = hit;
    }
  }
  // A cache read larger than the whole input is not a figure to show; the input stays, the cache is unknown.
  if (out.input !== undefined && out.cacheRead !== undefined && out.cacheRead > out.input) out.cacheRead = undefined;
  return out;
}

export interface StepUsageInput {
  protocol: string;
  model: string;
  /** The parsed usage (providers/map-usage.ts), absent when the provider sent none or the call stopped. */
  usage?: Usage;
  /** The provider's raw usage object (DeepSeek's hit/miss live only there). */
  rawUsage?: unknown;
  /** What was sent (history and tool schemas): the input estimate when input is not reported. */
  request: { messages: readonly Message[]; tools: readonly ToolSchema[]; imageTokens: number };
  /** What came back: the output estimate when output is not reported. */
  answer: AssistantMessage;
  durationMs: number;
}

/** The UTF-8 bytes of what the model produced (text, reasoning, tool calls) — the output estimate. */
function answerBytes(answer: AssistantMessage): number {
  const encoder = new TextEncoder();
  let n = 0;
  if (typeof answer.content === 'string') n += encoder.encode(answer.content).length;
  if (typeof answer.reasoning_content === 'string') n += encoder.encode(answer.reasoning_content).length;
  const thinking = answer._stopped?.thinking;
  if (typeof thinking === 'string') n += encoder.encode(thinking).length;
  for (const c of answer.tool_calls ?? []) n += encoder.encode(JSON.stringify(c.function ?? {})).length;
  return n;
}

export function stepUsageOf(o: StepUsageInput): StepUsage {
  const r = reportedFigures(o.protocol, o.usage, o.rawUsage);
  const settings = { ...UNLIMITED, image_tokens: o.request.imageTokens };
  const cache = r.cacheRead !== undefined || r.cacheWrite !== undefined;
  return {
    input_tokens: r.input ?? estimateBytes(o.request.messages, settings) + toolSchemaBytes(o.request.tools),
    output_tokens: r.output ?? answerBytes(o.answer),
    cache_read_tokens: r.cacheRead ?? 0,
    cache_write_tokens: r.cacheWrite ?? 0,
    ...(r.reasoning !== undefined ? { reasoning_tokens: r.reasoning } : {}),
    reported: { input: r.input !== undefined, output: r.output !== undefined, cache },
    duration_ms: Math.max(0, Math.round(o.durationMs)),
    protocol: o.protocol,
    model: o.model,
  };
}

/** Usage in the shape the budget anchors on (input + output), only from figures the provider reported. */
export function anchorUsage(u: StepUsage): Usage | undefined {
  return u.reported.input && u.reported.output
    ? { input_tokens: u.input_tokens, output_tokens: u.output_tokens }
    : undefined;
}

/**
 * The size of the next request: the history (with the latest answer) and the tool schemas, by the default budget's
 * estimator (anchored on the provider's usage when the anchor still covers a prefix). Without a budget the same
 * estimate, with no window or trigger.
 */
export function contextSizeOf(
  budget: BudgetSettings | null,
  history: readonly Message[],
  tools: readonly ToolSchema[],
  anchor: UsageAnchor | null,
): ContextSize {
  const verdict = estimateBudget(budget ?? UNLIMITED, history, tools, 0, anchor);
  return {
    tokens: verdict.estimate,
    window: budget ? budget.context_window : null,
    trigger: budget ? triggerOf(budget) : null,
    estimated: verdict.method !== 'usage',
  };
}

/**
 * The size of the request after `answer` (`history` is what was sent): anchored when the provider reported input and
 * output; else, when the input was estimated, that estimate plus the answer's bytes — the same sum as a full recount
 * of `[...history, answer]`, without walking a long history a second time in the same step.
 */
export function nextContextSize(
  budget: BudgetSettings | null,
  usage: StepUsage,
  history: readonly Message[],
  answer: AssistantMessage,
  tools: readonly ToolSchema[],
  anchor: UsageAnchor | null,
): ContextSize {
  if (anchor || usage.reported.input) return contextSizeOf(budget, [...history, answer], tools, anchor);
  const settings = budget ?? UNLIMITED;
  return {
    tokens: usage.input_tokens + estimateBytes([answer], settings),
    window: budget ? budget.context_window : null,
    trigger: budget ? triggerOf(budget) : null,
    estimated: true,
  };
}

/** An estimate of a whole history and tool schemas, also without a budget (compaction's before/after figures). */
export function estimateTokens(
  budget: BudgetSettings | null,
  history: readonly Message[],
  tools: readonly ToolSchema[],
): number {
  return estimateBudget(budget ?? UNLIMITED, history, tools, 0, null).estimate;
}
