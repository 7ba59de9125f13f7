// The originals a compaction folded, read back from the session log. Entries are append-only and a compaction
// commits one `reset` entry, so every message the model ever saw before a cut is still in the log: replaying the
// entries up to that reset gives the history the summary replaced (issue 15: "expands to show the summary and,
// on demand, the original messages").
import { headLength } from '../modules';
import { HarnessError } from '../contracts';
import type { Message } from '../contracts';
import type { CompactionInfo } from '../contracts';
import type { SessionStore } from './types';

const compactionOf = (m: Message): CompactionInfo | undefined =>
  m.role === 'user' ? (m._meta?.compaction as CompactionInfo | undefined) : undefined;

/**
 * The messages compaction `compactionId` folded: at the `reset` whose messages hold that compaction's summary, the
 * history just before it at [head, head + folded_messages) (head = system prompt and AGENTS.md, never folded).
 * One pass over the committed entries, each reset copied once: linear in the log, however many compactions it
 * holds. Unknown id: E_COMPACTION_NOT_FOUND (or the E_SESSION_CORRUPT refusal when the log is damaged before it).
 */
export async function foldedMessages(store: SessionStore, sessionId: string, compactionId: string): Promise<Message[]> {
  const { entries, damage } = await store.loadIntact(sessionId);
  let history: Message[] = [];
  for (const entry of entries) {
    if (entry.kind === 'message') {
      history.push(entry.message);
      continue;
    }
    const info = entry.messages.map(compactionOf).find((c) => c?.id === compactionId);
    if (info) {
      const head = headLength(history);
      return history.slice(head, head + info.folded_messages);
    }
    history = [...entry.messages];
  }
  if (damage) throw new HarnessError(damage.code, damage.message, damage.data);
  throw new HarnessError(
    'E_COMPACTION_NOT_FOUND',
    `The session "${sessionId}" has no compaction ${compactionId} in its log. Reload the conversation: the compaction may belong to another session or to a save that did not finish.`,
    {
      sessionId,
      compactionId,
    },
  );
}
