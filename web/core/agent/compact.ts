// The compaction seam (seed 000 §7). The core never picks a cut or invents a summary: without a `compact_plan`
// handler that returns a cut, an over-budget history blocks the request. With one, the chain is
// compact_plan → before_compact (a local `summary`, or a `prompt` the model summarises) → after_compact →
// before_compact_commit → budget re-check; any failure commits nothing and keeps the original history.
import { HarnessError } from '../errors';
import type { BudgetEstimate, HookPipeline } from '../hooks';
import { snapshotToRestore } from '../modules/context';
import { isProjectInstructions } from '../modules/prompts';
import type { Message, UserMessage } from '../providers/types';

export interface CompactDeps {
  hooks: HookPipeline;
  signal: AbortSignal;
  model: string;
  /** Asks the model for a summary of `messages` followed by `prompt` (compact: true, no tools). */
  summarise(messages: Message[], prompt: UserMessage): Promise<string>;
  /** Re-checks the budget of a candidate history. */
  check(messages: Message[]): BudgetEstimate;
}

export interface Compacted {
  messages: Message[];
  removed: number;
}

/** How many leading messages are the session's fixed head (system prompt, then AGENTS.md): never compacted. */
export function headLength(history: readonly Message[]): number {
  if (history[0]?.role !== 'system') return 0;
  return history[1] && isProjectInstructions(history[1]) ? 2 : 1;
}

/** Returns the compacted history, or null when no plugin chose to compact. Throws when a step fails. */
export async function compactHistory(history: Message[], budget: BudgetEstimate, deps: CompactDeps): Promise<Compacted | null> {
  const { hooks, signal } = deps;
  if (!hooks.has('compact_plan')) return null;
  const plan = await hooks.run('compact_plan', { budget, history, cut: null }, { signal });
  if (plan.cut === null) return null;
  const systemCount = headLength(history);
  if (plan.cut <= systemCount || plan.cut >= history.length) {
    throw new HarnessError('E_COMPACT_INVALID_CUT', `The compaction plan chose cut ${plan.cut}, outside ${systemCount + 1}..${history.length - 1}. Nothing was compacted.`);
  }
  if (history[plan.cut]?.role === 'tool') {
    throw new HarnessError('E_COMPACT_INVALID_CUT', `The compaction plan's cut ${plan.cut} splits a tool call from its result. Nothing was compacted.`);
  }
  const prefix = history.slice(systemCount, plan.cut);
  const before = await hooks.run(
    'before_compact',
    { messages: prefix, cut: plan.cut, ...(plan.state !== undefined ? { state: plan.state } : {}), model: deps.model, policy: {} },
    { signal },
  );
  let summary = before.summary;
  if (summary === undefined) {
    if (!before.prompt) throw new HarnessError('E_COMPACT_NO_PROMPT', 'before_compact returned neither a summary nor a prompt. Nothing was compacted.');
    const prompt: UserMessage = { role: 'user', content: before.images?.length ? [{ type: 'text', text: before.prompt }, ...before.images] : before.prompt };
    summary = await deps.summarise(before.messages, prompt);
  }
  const after = await hooks.run('after_compact', { summary, ...(before.state !== undefined ? { state: before.state } : {}) }, { signal });
  if (after.summary.trim() === '') throw new HarnessError('E_COMPACT_EMPTY', 'The compaction summary is empty. Nothing was compacted.');
  const summaryMessage: UserMessage = { role: 'user', content: `Summary of the earlier conversation:\n${after.summary}`, _meta: { kind: 'compaction_summary' } };
  // The kept part lost the memory/skills snapshot? Put back the full snapshot of what the model had seen at the
  // cut, so later deltas still apply (seed 000 §7); before_compact_commit sees it and may adjust.
  const kept = history.slice(plan.cut);
  const restored = snapshotToRestore(history.slice(0, plan.cut), kept);
  const candidate: Message[] = [...history.slice(0, systemCount), summaryMessage, ...(restored ? [restored] : []), ...kept];
  const committed = hooks.has('before_compact_commit')
    ? (await hooks.run('before_compact_commit', { messages: candidate, summary: after.summary, ...(after.state !== undefined ? { state: after.state } : {}) }, { signal })).messages
    : candidate;
  const verdict = deps.check(committed);
  const original = deps.check(history);
  if (verdict.estimate >= original.estimate) throw new HarnessError('E_COMPACT_NOT_SMALLER', 'The compacted history is not smaller than the original. Nothing was compacted.');
  if (!verdict.fits) throw new HarnessError('E_COMPACT_OVER_BUDGET', 'The compacted history still exceeds the context budget. Start a new session or lower the history size.');
  return { messages: committed, removed: plan.cut - systemCount };
}
