// What a session and a workspace cost, read from the session log in the Worker (issue 15). Totals count every
// model call that was ever paid for: messages a compaction folded, and answers a retry rewound, stay in the log
// (append-only entries; a `reset` only changes what the model sees next), so the totals walk the log, not the
// current history.
import type { CacheRecord, CacheReport } from '../modules';
import type { AssistantMessage, Message } from '../contracts';
import type { SessionEntry, SessionStore } from '../sessions';
import type { PriceTable, StepUsage, UsageTotals } from '../contracts';
import { addTotals, usageTotals } from '../usage';

export interface SessionUsage {
  id: string;
  title: string;
  totals: UsageTotals;
}

export interface WorkspaceUsage {
  totals: UsageTotals;
  /** Sessions with at least one measured model call, most expensive (then most tokens) first. */
  sessions: SessionUsage[];
  /** The cache statistics of the workspace (Settings → Agent's namespace), or null when none were recorded. */
  cache: { report: CacheReport; records: CacheRecord[] } | null;
}

/**
 * Every measured model call the log ever held, each once, as assistant messages with `_usage`: the answers, and the
 * compaction summaries' own requests (their usage is on the summary message, `_meta.usage`). A `reset` repeats the messages it keeps;
 * only the ones not seen before are new (e.g. the answer of the step that compacted, saved inside the reset).
 */
export function measuredMessages(entries: readonly SessionEntry[]): AssistantMessage[] {
  const seen = new Set<string>();
  const out: AssistantMessage[] = [];
  const visit = (m: Message) => {
    // A compaction's summary request is a paid model call too: its usage rides on the summary message.
    const summary =
      m.role === 'user' && m._meta?.kind === 'compaction_summary'
        ? (m._meta.usage as StepUsage | undefined)
        : undefined;
    const call: AssistantMessage | null =
      m.role === 'assistant' && m._usage
        ? m
        : summary
          ? { role: 'assistant', content: typeof m.content === 'string' ? m.content : '', _usage: summary }
          : null;
    if (!call) return;
    // The usage record and the reply identify a model call; the same call is the same JSON wherever it is stored.
    const key = JSON.stringify([call._usage, call.content, call.tool_calls?.map((c) => c.id)]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(call);
  };
  for (const entry of entries) {
    if (entry.kind === 'message') visit(entry.message);
    else entry.messages.forEach(visit);
  }
  return out;
}

/** Per-session totals, remembered by the session's checkpoint so a workspace view re-reads only what changed. */
export function createUsageQueries(store: SessionStore) {
  const memo = new Map<string, { seq: number; prices: string; totals: UsageTotals }>();

  async function sessionTotals(id: string, prices: PriceTable | null): Promise<UsageTotals> {
    const info = await store.get(id);
    const hit = memo.get(id);
    const key = JSON.stringify(prices);
    if (info && hit && hit.seq === info.checkpointSeq && hit.prices === key) return hit.totals;
    // loadIntact: a damaged session still shows what its intact part cost.
    const intact = await store.loadIntact(id);
    const totals = usageTotals(measuredMessages(intact.entries), prices);
    memo.set(id, { seq: intact.info.checkpointSeq, prices: key, totals });
    return totals;
  }

  async function workspaceTotals(prices: PriceTable | null): Promise<Pick<WorkspaceUsage, 'totals' | 'sessions'>> {
    const infos = await store.list();
    const sessions: SessionUsage[] = [];
    let totals = usageTotals([], prices);
    for (const info of infos) {
      let t: UsageTotals;
      try {
        t = await sessionTotals(info.id, prices);
      } catch {
        continue; // a session that cannot be read at all (newer format) adds nothing rather than hiding the rest
      }
      if (t.steps === 0) continue;
      totals = addTotals(totals, t);
      sessions.push({ id: info.id, title: info.title, totals: t });
    }
    sessions.sort(
      (a, b) =>
        (b.totals.cost ?? 0) - (a.totals.cost ?? 0) ||
        b.totals.input_tokens + b.totals.output_tokens - (a.totals.input_tokens + a.totals.output_tokens),
    );
    return { totals, sessions };
  }

  return { sessionTotals, workspaceTotals, forget: (id: string) => void memo.delete(id) };
}
