// A small journal of the turn in flight, so that after a closed tab or a crash the app can say what happened
// since the last checkpoint: the prompt of the unfinished turn and, for the tool batch in progress, which calls
// ran. A batch is not a transaction (nothing is rolled back); the journal only reports. Kept in the `metrics`
// store under [workspaceId, "turn:<sessionId>"], so deleting the workspace deletes it.
import type { HarnessDb } from '../storage';

export type CallState = 'pending' | 'waiting-approval' | 'running' | 'done' | 'failed' | 'refused';

export interface JournalCall {
  id: string;
  name: string;
  state: CallState;
  /** One line from the tool's prepare (e.g. the file an edit changes), when known. */
  summary?: string;
}

export interface TurnJournal {
  sessionId: string;
  /** The person's message of the unfinished turn (text only). */
  prompt: string;
  startedAt: number;
  step: number;
  /** Calls of the batch that was not checkpointed yet; empty between batches. */
  calls: JournalCall[];
}

const key = (sessionId: string) => `turn:${sessionId}`;

export async function readJournal(db: HarnessDb, workspaceId: string, sessionId: string): Promise<TurnJournal | null> {
  const record = await db.get('metrics', [workspaceId, key(sessionId)]);
  return (record?.journal as TurnJournal | undefined) ?? null;
}

export async function writeJournal(db: HarnessDb, workspaceId: string, journal: TurnJournal): Promise<void> {
  await db.put('metrics', { workspaceId, name: key(journal.sessionId), journal });
}

export async function clearJournal(db: HarnessDb, workspaceId: string, sessionId: string): Promise<void> {
  await db.delete('metrics', [workspaceId, key(sessionId)]);
}

/** Did any call of the interrupted batch run (side effects may have happened)? */
export const ranCalls = (journal: TurnJournal) => journal.calls.filter((c) => c.state === 'running' || c.state === 'done' || c.state === 'failed');
