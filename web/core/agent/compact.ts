// The compaction seam (seed 000 §7). The core never picks a cut or invents a summary: without a `compact_plan`
// handler that returns a cut, an over-budget history blocks the request. With one, the chain is
// compact_plan → before_compact (a local `summary`, or a `prompt` the model summarises) → after_compact →
// before_compact_commit → budget re-check; any failure commits nothing and keeps the original history.
// A manual compaction (`TurnInput.compact`) runs the same chain with `manual: true` and the person's focus text.
import { HarnessError, type ErrorData, toErrorData } from '../contracts';
import type { BudgetEstimate, HookPipeline } from '../hooks';
import { snapshotToRestore } from '../modules';
import { headLength } from '../modules';
import { focusInstruction } from '../modules';
import type { Message, UserMessage } from '../contracts';
import type { CompactionInfo, StepUsage } from '../contracts';

export interface CompactDeps {
  /** The pipeline whose compact_plan … before_compact_commit chain runs (the session's, or the default compactor). */
  hooks: HookPipeline;
  signal: AbortSignal;
  model: string;
  /** Asks the model for a summary of `messages` followed by `prompt` (compact: true, no tools). */
  summarise(messages: Message[], prompt: UserMessage): Promise<{ text: string; usage?: StepUsage }>;
  /** Re-checks the budget of a candidate history. */
  check(messages: Message[]): BudgetEstimate;
  /** The comparable estimate (UTF-8 bytes, no anchor) of a history: before/after figures and "is it smaller". */
  estimate(messages: Message[]): number;
  /** Set for `/compact` / `i --compact`: compact now even when the budget fits, with the person's focus text. */
  manual?: { focus?: string };
}

export interface Compacted {
  messages: Message[];
  removed: number;
  compaction: CompactionInfo;
  /** The summary text as committed (after after_compact). */
  summary: string;
}

/**
 * What a failed compaction reports: the compactor's own E_COMPACT_* code when a handler threw one (the pipeline
 * wraps every handler throw as E_HOOK_FAILED, which would hide what went wrong), else the error as it is.
 */
export { headLength };

export function compactionError(error: unknown): ErrorData {
  const data = toErrorData(error, 'E_COMPACT_FAILED');
  const cause = error instanceof Error ? error.cause : undefined;
  if (data.code === 'E_HOOK_FAILED' && HarnessError.isInstance(cause) && cause.code.startsWith('E_COMPACT_')) {
    const own = cause.toJSON();
    return { ...own, data: { ...(own.data ?? {}), hook: (data.data as { hook?: unknown } | undefined)?.hook } };
  }
  return data;
}

/** A v4 UUID. `randomUUID` exists only in secure contexts; a page served over plain http on a LAN has only getRandomValues. */
function newId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Returns the compacted history, or null when no plugin chose to compact. Throws when a step fails. */
export async function compactHistory(
  history: Message[],
  budget: BudgetEstimate,
  deps: CompactDeps,
): Promise<Compacted | null> {
  const { hooks, signal } = deps;
  if (!hooks.has('compact_plan')) return null;
  const focus = deps.manual?.focus;
  const plan = await hooks.run(
    'compact_plan',
    { budget, history, cut: null, ...(deps.manual ? { manual: true } : {}) },
    { signal },
  );
  if (plan.cut === null) return null;
  const systemCount = headLength(history);
  if (plan.cut <= systemCount || plan.cut >= history.length) {
    throw new HarnessError(
      'E_COMPACT_INVALID_CUT',
      `The compaction plan chose cut ${plan.cut}, outside ${systemCount + 1}..${history.length - 1}. Nothing was compacted.`,
    );
  }
  if (history[plan.cut]?.role === 'tool') {
    throw new HarnessError(
      'E_COMPACT_INVALID_CUT',
      `The compaction plan's cut ${plan.cut} splits a tool call from its result. Nothing was compacted.`,
    );
  }
  const prefix = history.slice(systemCount, plan.cut);
  const policy = deps.manual ? { manual: true, ...(focus ? { focus } : {}) } : {};
  const before = await hooks.run(
    'before_compact',
    {
      messages: prefix,
      cut: plan.cut,
      ...(plan.state !== undefined ? { state: plan.state } : {}),
      model: deps.model,
      policy,
    },
    { signal },
  );
  let summary = before.summary;
  let usage: StepUsage | undefined;
  if (summary === undefined) {
    if (!before.prompt)
      throw new HarnessError(
        'E_COMPACT_NO_PROMPT',
        'before_compact returned neither a summary nor a prompt. Nothing was compacted.',
      );
    // The person's focus reaches the summary request whichever prompt is in force (default, compact.json, a plugin's).
    const text = focus ? before.prompt + focusInstruction(focus) : before.prompt;
    const prompt: UserMessage = {
      role: 'user',
      content: before.images?.length ? [{ type: 'text', text }, ...before.images] : text,
    };
    ({ text: summary, usage } = await deps.summarise(before.messages, prompt));
  }
  const after = await hooks.run(
    'after_compact',
    { summary, ...(before.state !== undefined ? { state: before.state } : {}) },
    { signal },
  );
  if (after.summary.trim() === '')
    throw new HarnessError('E_COMPACT_EMPTY', 'The compaction summary is empty. Nothing was compacted.');
  const info: CompactionInfo = {
    id: newId(),
    folded_messages: plan.cut - systemCount,
    folded_tool_results: prefix.filter((m) => m.role === 'tool').length,
    tokens_before: deps.estimate(history),
    tokens_after: 0,
    ...(focus ? { focus } : {}),
    manual: deps.manual !== undefined,
    at: Date.now(),
  };
  const summaryMessage: UserMessage = {
    role: 'user',
    content: `Summary of the earlier conversation:\n${after.summary}`,
    _meta: { kind: 'compaction_summary', compaction: info, ...(usage ? { usage } : {}) },
  };
  // The kept part lost the memory/skills snapshot? Put back the full snapshot of what the model had seen at the
  // cut, so later deltas still apply (seed 000 §7); before_compact_commit sees it and may adjust.
  const kept = history.slice(plan.cut);
  const restored = snapshotToRestore(history.slice(0, plan.cut), kept);
  const candidate: Message[] = [
    ...history.slice(0, systemCount),
    summaryMessage,
    ...(restored ? [restored] : []),
    ...kept,
  ];
  const committed = hooks.has('before_compact_commit')
    ? (
        await hooks.run(
          'before_compact_commit',
          { messages: candidate, summary: after.summary, ...(after.state !== undefined ? { state: after.state } : {}) },
          { signal },
        )
      ).messages
    : candidate;
  // Both sides by the same byte estimate: an anchored figure for one side only would not be comparable (seed 000 §7).
  const tokensAfter = deps.estimate(committed);
  if (tokensAfter >= info.tokens_before)
    throw new HarnessError(
      'E_COMPACT_NOT_SMALLER',
      'The compacted history is not smaller than the original. Nothing was compacted.',
    );
  if (!deps.check(committed).fits)
    throw new HarnessError(
      'E_COMPACT_OVER_BUDGET',
      'The compacted history still exceeds the context budget. Start a new session or lower the history size.',
    );
  const compaction: CompactionInfo = { ...info, tokens_after: tokensAfter };
  // The summary message carries the final figures (a commit hook may have copied it: find it by its id).
  const messages = committed.map((m) =>
    m.role === 'user' && (m._meta?.compaction as CompactionInfo | undefined)?.id === info.id
      ? { ...m, _meta: { ...m._meta, compaction } }
      : m,
  );
  return { messages, removed: compaction.folded_messages, compaction, summary: after.summary };
}
