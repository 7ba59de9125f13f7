// Undo's housekeeping in the app (issue 16): the checkpoint records of sessions that were deleted (the sidebar
// deletes sessions without the agent, and a workspace's contents are shared by its sessions in IndexedDB) are
// dropped with the contents only they named, and contents no record names at all (stored for a write that then
// failed, or cut off by a closed tab between storing and recording) are removed. Once per app agent, at the start
// of its first turn: no revert runs while a turn does, so nothing is stored-but-not-yet-recorded by this tab then.
import type { CheckpointStore } from '../checkpoints';
import type { SessionStore } from '../sessions';

export interface UpkeepResult {
  /** Sessions whose records were dropped (deleted sessions). */
  sessions: string[];
  blobs: number;
  bytes: number;
}

export async function tidyCheckpoints(checkpoints: CheckpointStore, sessions: SessionStore): Promise<UpkeepResult> {
  // Records first, then the session list: a session with records existed when they were read, so one missing from
  // the later list was deleted (never one created in between).
  const recorded = new Set((await checkpoints.list()).map((r) => r.session));
  const live = new Set((await sessions.list()).map((s) => s.id));
  const out: UpkeepResult = { sessions: [], blobs: 0, bytes: 0 };
  for (const session of recorded) {
    if (live.has(session)) continue;
    const freed = await checkpoints.dropSession(session);
    out.sessions.push(session);
    out.blobs += freed.blobs;
    out.bytes += freed.bytes;
  }
  const swept = await checkpoints.sweepOrphans();
  out.blobs += swept.blobs;
  out.bytes += swept.bytes;
  return out;
}

/**
 * `tidyCheckpoints` at most once (the first call; later calls share it). Housekeeping never fails a turn: an error
 * leaves things as they were until the next app agent tries again.
 */
export function checkpointUpkeep(checkpoints: CheckpointStore, sessions: SessionStore): () => Promise<void> {
  let once: Promise<void> | null = null;
  return () =>
    (once ??= tidyCheckpoints(checkpoints, sessions).then(
      () => undefined,
      () => undefined,
    ));
}
