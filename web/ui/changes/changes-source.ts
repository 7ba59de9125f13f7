// The open session's changes, read once per session change or undo epoch and shared by the header's +/− total and
// the Changes panel (chat.undo.changes() diffs every changed file: not something to do twice).
import { createResource, type Resource } from 'solid-js';
import type { SessionChanges } from '../../core/page';
import type { UndoActions } from '../chat/undo-actions';

export function createSessionChanges(o: {
  sessionId: () => string | null;
  undo: UndoActions;
  filesEpoch?: () => unknown;
}): Resource<SessionChanges | null> {
  const [changes] = createResource(
    // filesEpoch: the person changed files through the app (Files panel), which can make one "changed since".
    () => ({ id: o.sessionId(), epoch: o.undo.epoch(), files: o.filesEpoch?.() }),
    ({ id }) => (id ? o.undo.changes() : Promise.resolve(null)),
  );
  return changes;
}
