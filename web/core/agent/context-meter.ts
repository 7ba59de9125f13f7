// The context meter: the size of the next request, kept up to date one message at a time. It uses the budget's
// own estimator (web/core/agent/budget.ts: UTF-8 bytes of each message's wire view, images at image_tokens, the
// tool schemas' bytes) and its usage anchor (the provider's input + output of the last answer, plus the bytes of
// everything after it), so `tokens` equals `estimateBudget(...).estimate` for the same history, tools and anchor;
// only the work differs: `push` costs O(new message), a recount O(history).
//
// Anchors come from assistant messages whose `_usage` reported both input and output. After a compaction the
// usage of the kept answers counted the folded messages, and the log cannot tell those answers from later ones, so
// `reset` never anchors on an answer behind a compaction summary: the size is an estimate in bytes (`estimated`)
// until the next answer is pushed. The loop drops its anchor at a compaction for the same reason.
import { DEFAULT_BUDGET, estimateBudget, estimateBytes, triggerOf, type UsageAnchor } from './budget';
import type { BudgetSettings } from '../hooks';
import type { Message, ToolSchema } from '../contracts';
import type { ContextSize } from '../contracts';

export interface ContextMeter {
  /** Takes a whole history (opening a session, or after the history was replaced); O(history). */
  reset(history: readonly Message[]): ContextSize;
  /** One message appended to the history; O(message). */
  push(message: Message): ContextSize;
  /** The tool schemas of the next request changed (a plugin enabled, a profile switched). */
  setTools(tools: readonly ToolSchema[]): ContextSize;
  size(): ContextSize;
  /** Messages counted so far. */
  readonly length: number;
  /** The anchor in use, in estimateBudget's form (null: every message is estimated in bytes). */
  anchor(): UsageAnchor | null;
}

/** Without a budget the window is unknown, but the size is still worth showing: images at the default plan. */
const UNBUDGETED_ESTIMATOR: BudgetSettings = { ...DEFAULT_BUDGET, context_window: 0, max_tokens: 0 };

const isCompactionSummary = (m: Message) => m.role === 'user' && m._meta?.kind === 'compaction_summary';

/** The tokens an answer's usage vouches for (input + output, as the loop's anchorFrom counts them), or null. */
function anchorTokens(m: Message): number | null {
  if (m.role !== 'assistant' || !m._usage) return null;
  const u = m._usage;
  if (!u.reported.input || !u.reported.output) return null;
  const tokens = u.input_tokens + u.output_tokens;
  return Number.isSafeInteger(tokens) && u.input_tokens >= 0 && u.output_tokens >= 0 ? tokens : null;
}

export function createContextMeter(options: {
  budget: BudgetSettings | null;
  tools?: readonly ToolSchema[];
}): ContextMeter {
  const settings = options.budget ?? UNBUDGETED_ESTIMATOR;
  const window = options.budget ? options.budget.context_window : null;
  const trigger = options.budget ? triggerOf(options.budget) : null;
  // The schemas' bytes exactly as estimateBudget counts them (an empty history leaves only the tools).
  const toolBytesOf = (tools: readonly ToolSchema[]) => estimateBudget(settings, [], tools, 0, null).estimate;
  let toolBytes = toolBytesOf(options.tools ?? []);
  let length = 0;
  let totalBytes = 0;
  let anchor: UsageAnchor | null = null;
  let sinceAnchor = 0;

  const size = (): ContextSize => ({
    tokens: (anchor ? anchor.tokens + sinceAnchor : totalBytes) + toolBytes,
    window,
    trigger,
    estimated: anchor === null,
  });

  const add = (message: Message, mayAnchor: boolean) => {
    const bytes = estimateBytes([message], settings);
    length++;
    totalBytes += bytes;
    const tokens = mayAnchor ? anchorTokens(message) : null;
    if (tokens !== null) {
      anchor = { length, last: message, tokens };
      sinceAnchor = 0;
    } else {
      sinceAnchor += bytes;
    }
  };

  return {
    reset(history) {
      length = 0;
      totalBytes = 0;
      anchor = null;
      sinceAnchor = 0;
      const compacted = history.some(isCompactionSummary);
      for (const m of history) add(m, !compacted);
      return size();
    },
    push(message) {
      // A summary arriving by itself means the caller rewrote the history without reset: the old anchor is void.
      if (isCompactionSummary(message)) {
        anchor = null;
        sinceAnchor = 0;
      }
      add(message, true);
      return size();
    },
    setTools(tools) {
      toolBytes = toolBytesOf(tools);
      return size();
    },
    size,
    get length() {
      return length;
    },
    anchor: () => anchor,
  };
}
