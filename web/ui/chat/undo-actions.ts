// The chat's side of undo (issue 16): what the open session changed, a file's versions, reverts and "Rewind to
// here", through the agent Worker. Views read `epoch()` to refresh after a turn or a revert changed something.
import { createSignal, type Accessor } from 'solid-js';
import type { RemoteAgent } from '../../core/agent-worker';
import type { FileVersions, RevertOp, RewindMode, RewindResult, SessionChanges } from '../../core/page';
import type { RevertResult } from '../../core/page';
import { HarnessError } from '../../core/contracts';

export interface UndoActions {
  /** Changes when a turn ended or a revert/rewind ran: views showing changes read it to refresh. */
  epoch: Accessor<number>;
  changes(): Promise<SessionChanges | null>;
  fileVersions(path: string): Promise<FileVersions>;
  /** Refused with E_REVERT_CONFLICT (data: conflicts) when a file changed since the agent left it, unless `force`. */
  revert(op: RevertOp, force?: boolean): Promise<RevertResult>;
  revertPart(path: string, content: string, expectedSha: string): Promise<RevertResult>;
  /** Conversation and/or files back to before the prompt at `index`; the messages reload. */
  rewind(index: number, mode: RewindMode, force?: boolean): Promise<RewindResult>;
  /** Called by the controller when a turn ended (its files may have changed). */
  bump(): void;
}

const noSession = () =>
  new HarnessError('E_SESSION_NOT_OPEN', 'No session is open. Open the session whose changes you want to see.');

export function undoActions(o: {
  agent: RemoteAgent;
  sessionId: Accessor<string | null>;
  busy: Accessor<boolean>;
  reload(id: string): Promise<void>;
  onFilesChanged?: () => void;
}): UndoActions {
  const [epoch, setEpoch] = createSignal(0);
  const bump = () => setEpoch((n) => n + 1);
  const session = () => {
    const id = o.sessionId();
    if (!id) throw noSession();
    return id;
  };
  const changed = <T>(work: Promise<T>) =>
    work.then((result) => {
      bump();
      o.onFilesChanged?.();
      return result;
    });
  return {
    epoch,
    bump,
    changes: async () => {
      const id = o.sessionId();
      return id ? o.agent.changes(id) : null;
    },
    fileVersions: async (path) => o.agent.fileVersions(session(), path),
    revert: async (op, force) => changed(o.agent.revert(session(), op, force)),
    revertPart: async (path, content, sha) => changed(o.agent.revertPart(session(), path, content, sha)),
    async rewind(index, mode, force) {
      if (o.busy()) throw new HarnessError('E_TURN_BUSY', 'A turn is running. Stop it first, then rewind.');
      const id = session();
      const result = await changed(o.agent.rewind(id, index, mode, force));
      await o.reload(id);
      return result;
    },
  };
}
