// Salvage of a damaged session (one `load` refuses with E_SESSION_CORRUPT): the entries that read back whole, cut
// back to the last consistent point, saved as a NEW session. The damaged session is only read, never changed, so
// it can still be restored from a backup or deleted afterwards. Built on the port, so both stores share it.
import { HarnessError } from '../contracts';
import type { Message } from '../contracts';
import { replayEntries } from './replay';
import { titleWithSuffix } from './title';
import type { SessionInfo, SessionStore } from './types';
import { isConsistent } from './validate-history';

export const RECOVERED_TITLE_SUFFIX = ' (recovered)';

export interface RecoveredSession {
  /** The new session holding the intact part. */
  info: SessionInfo;
  /** The damaged session as it was read (unchanged). */
  from: SessionInfo;
  /** Messages in the new session. */
  kept: number;
  /** Intact messages left out because they end on a tool call whose results were lost (a half batch). */
  cut: number;
  /** Committed entries that read back whole, and how many the damaged session's checkpoint covers. */
  intactEntries: number;
  committedEntries: number;
}

/** "<title> (recovered)", shortened so it stays a valid title. */
export function recoveredTitle(title: string): string {
  return titleWithSuffix(title, RECOVERED_TITLE_SUFFIX);
}

/**
 * How many leading messages form a consistent conversation (`isConsistent`): every assistant tool call answered
 * by its results. One pass finds the last closed point before the first break in the pairing; `isConsistent` is
 * the judge, so a cut it would refuse is never returned.
 */
export function consistentLength(messages: readonly Message[]): number {
  let open = new Set<string>();
  let best = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'tool') {
      if (!open.delete(m.tool_call_id)) break; // a result answering no open call: nothing after it is consistent
    } else {
      // Tool image messages may follow the answers; anything else with calls still open is a half batch.
      if (open.size > 0 && !(m.role === 'user' && m._meta?.kind === 'tool_images')) break;
      if (m.role === 'assistant' && m.tool_calls?.length) open = new Set(m.tool_calls.map((c) => c.id));
    }
    if (open.size === 0) best = i + 1;
  }
  while (best > 0 && !isConsistent(messages.slice(0, best))) best--;
  return best;
}

/**
 * Copies the intact part of the damaged session `id` into a new session (`title`, default "<title> (recovered)";
 * `newId` for the file store's session name). Refuses a session that is not damaged (E_SESSION_NOT_DAMAGED: open
 * it as it is) and one with no intact message (E_SESSION_NOTHING_INTACT), creating nothing in both cases.
 */
export async function recoverSession(
  store: SessionStore,
  id: string,
  options: { title?: string; newId?: string } = {},
): Promise<RecoveredSession> {
  const { info: from, entries, damage } = await store.loadIntact(id);
  if (!damage) {
    throw new HarnessError(
      'E_SESSION_NOT_DAMAGED',
      `The session "${from.title}" is not damaged: all its ${from.checkpointSeq + 1} entries read back, so there is nothing to recover. Open it as it is.`,
      { id },
    );
  }
  const intact = replayEntries(entries);
  const kept = consistentLength(intact);
  if (kept === 0) {
    throw new HarnessError(
      'E_SESSION_NOTHING_INTACT',
      `Nothing of the session "${from.title}" can be recovered: ${intact.length === 0 ? 'its first entry is already damaged' : 'no intact message ends a complete exchange'}. Nothing was created or changed. Restore the session from a backup, or delete it.`,
      { id, intactEntries: entries.length },
    );
  }
  const created = await store.create({
    title: options.title ?? recoveredTitle(from.title),
    ...(options.newId !== undefined ? { id: options.newId } : {}),
    forkedFrom: { sessionId: id, messageIndex: kept - 1 },
  });
  let info: SessionInfo;
  try {
    info = await store.commit(created.id, [{ kind: 'reset', messages: intact.slice(0, kept) }], created.checkpointSeq);
  } catch (error) {
    // Leave no empty "(recovered)" session behind a failed copy.
    await store.delete(created.id).catch(() => undefined);
    throw error;
  }
  return {
    info,
    from,
    kept,
    cut: intact.length - kept,
    intactEntries: entries.length,
    committedEntries: from.checkpointSeq + 1,
  };
}
