// A small journal of the turn in flight, so that after a closed tab or a crash the app can say what happened
// since the last checkpoint: the prompt of the unfinished turn and, for the tool batch in progress, which calls
// ran. A batch is not a transaction (nothing is rolled back); the journal only reports. Kept in the `metrics`
// store under [workspaceId, "turn:<sessionId>"], so deleting the workspace deletes it.
import type { AgentEvent } from '../agent';
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
export const ranCalls = (journal: TurnJournal) =>
  journal.calls.filter((c) => c.state === 'running' || c.state === 'done' || c.state === 'failed');

/** Follows one agent event into the journal, writing it when the batch state changed. */
export async function trackJournal(
  db: HarnessDb,
  workspaceId: string,
  journal: TurnJournal,
  event: AgentEvent,
): Promise<void> {
  const set = (id: string, state: CallState, summary?: string) => {
    const call = journal.calls.find((c) => c.id === id);
    if (call) {
      call.state = state;
      if (summary) call.summary = summary;
    }
  };
  switch (event.type) {
    case 'step-start':
      journal.step = event.step;
      return;
    case 'assistant':
      if (!event.message.tool_calls?.length) return;
      journal.calls = event.message.tool_calls.map((c) => ({ id: c.id, name: c.function.name, state: 'pending' }));
      break;
    case 'approval-needed':
      set(event.request.callId, 'waiting-approval', event.request.prepared?.summary);
      break;
    case 'approval':
      set(event.id, event.allowed ? 'running' : 'refused');
      break;
    case 'tool-result':
      if (journal.calls.find((c) => c.id === event.id)?.state === 'refused') return;
      set(event.id, event.error ? 'failed' : 'done');
      break;
    case 'checkpoint':
      journal.calls = [];
      break;
    default:
      return;
  }
  await writeJournal(db, workspaceId, journal);
}
