// The recorder: a WorkspaceFs per tool call that keeps the state of every file the call writes or deletes, before
// and after, in a CheckpointStore. The loop hands it to tools as `ToolContext.fs` (TurnDeps.checkpoints), so the
// built-in write/edit and plugin fs.write (host-ops.ts writes through the same ctx.fs) are recorded alike.
// Bridge and native tools change files outside this fs: they cannot be recorded (CONTEXT.md).
//
// The state before is read once per turn per path (the first write of the turn); later writes of the same path
// in the turn start from the state the previous one left. A write whose prior state cannot be stored is refused
// (E_CHECKPOINT_FAILED) before the file is touched: an undo must never be promised and then be missing. A failure
// to store the state after a write (the file is already changed) is reported through `onEvent`, not thrown.
import { sha256Hex } from './hash';
import { HarnessError, toErrorData, type ErrorData } from '../errors';
import { normalizeWorkspacePath, protectWrites, writePolicyOf, type WorkspaceFs } from '../fs';
import { ABSENT, type CheckpointStore, type Pruned } from './types';

export type CheckpointEvent =
  | { type: 'recorded'; path: string; turn: number; callId: string; tool: string; before: string; after: string }
  | { type: 'pruned'; pruned: Pruned }
  | { type: 'untracked'; path: string; error: ErrorData };

export interface TurnCheckpointOptions {
  store: CheckpointStore;
  session: string;
  /** Told about every record, every pruning and every write that could not be recorded after it happened. */
  onEvent?: (event: CheckpointEvent) => void;
  now?: () => number;
}

export interface TurnCheckpoints {
  readonly turn: number;
  /** TurnDeps.checkpoints: the fs one tool call gets. */
  fsFor(call: { id: string; name: string; step: number }, fs: WorkspaceFs): WorkspaceFs;
}

/** The next turn number of a session: one more than any turn it recorded (markers included). */
export async function nextTurn(store: CheckpointStore, session: string): Promise<number> {
  return (await store.lastTurn(session)) + 1;
}

/**
 * Starts a turn: records its marker (so turns without writes keep their numbers) and returns the per-call fs
 * factory. `turn` may be given by a host that numbers turns itself; `turnId` (kept as the marker's callId) ties the
 * marker to the prompt that started the turn (`UserMessage._turn`), for "Rewind to here".
 */
export async function startTurnCheckpoints(options: TurnCheckpointOptions & { turn?: number; turnId?: string }): Promise<TurnCheckpoints> {
  const { store, session } = options;
  const now = options.now ?? Date.now;
  const turn = options.turn ?? (await nextTurn(store, session));
  const marker = await store.append({ kind: 'turn', session, turn, step: 0, callId: options.turnId ?? '', tool: '', path: '', before: ABSENT, after: ABSENT, beforeBytes: null, afterBytes: null, at: now() });
  if (marker.pruned) options.onEvent?.({ type: 'pruned', pruned: marker.pruned });
  /** The state each path was left in by this turn's last recorded write: the next write's "before". */
  const known = new Map<string, { sha: string; bytes: number | null }>();

  const fsFor = (call: { id: string; name: string; step: number }, inner: WorkspaceFs): WorkspaceFs => {
    const emit = (event: CheckpointEvent) => options.onEvent?.(event);

    /** The state of `path` now, stored; null when it is a folder (the write will fail on its own). */
    const capture = async (path: string): Promise<{ sha: string; bytes: number | null } | null> => {
      const seen = known.get(path);
      try {
        const stat = await inner.stat(path);
        if (stat?.directory) return null;
        // Always what the file holds NOW: the person may have edited it since this turn's last write (while an
        // approval card waited). Their version becomes this write's "before", so a revert can find it.
        if (!stat) return seen?.sha === ABSENT ? seen : { sha: ABSENT, bytes: null };
        const bytes = await inner.readBytes(path);
        if (seen && seen.sha !== ABSENT && seen.bytes === bytes.byteLength && (await sha256Hex(bytes)) === seen.sha) return seen;
        return { sha: await store.putBlob(session, bytes), bytes: bytes.byteLength };
      } catch (error) {
        const e = toErrorData(error, 'E_CHECKPOINT_FAILED');
        throw new HarnessError(
          'E_CHECKPOINT_FAILED',
          `${path} was not changed: its current contents could not be saved for undo (${e.code}: ${e.message}). ${
            e.code === 'E_FS_TOO_LARGE' ? 'A file over the read limit cannot be kept for undo; change it outside the agent.' : 'Free browser storage or disk space and try again.'
          }`,
          { path, cause: e },
        );
      }
    };

    const record = async (path: string, before: { sha: string; bytes: number | null }, after: Uint8Array | null) => {
      try {
        // The new contents and the record in one store write (IndexedDB: one transaction).
        const { record: r, pruned } = await store.appendWrite(
          { kind: 'write', session, turn, step: call.step, callId: call.id, tool: call.name, path, before: before.sha, beforeBytes: before.bytes, at: now() },
          after,
        );
        known.set(path, { sha: r.after, bytes: r.afterBytes });
        emit({ type: 'recorded', path, turn, callId: call.id, tool: call.name, before: r.before, after: r.after });
        if (pruned) emit({ type: 'pruned', pruned });
      } catch (error) {
        // The file is already written: forget what this turn knew of it, so the next write reads it afresh.
        known.delete(path);
        emit({ type: 'untracked', path, error: toErrorData(error, 'E_CHECKPOINT_FAILED') });
      }
    };

    const write = async (raw: string, bytes: Uint8Array, run: () => Promise<void>) => {
      const path = normalizeWorkspacePath(raw).path;
      const before = await capture(path);
      await run();
      if (before) await record(path, before, bytes);
    };

    /** Files under a folder about to be removed (recursively), each with its state. */
    const filesUnder = async (folder: string): Promise<string[]> => {
      const out: string[] = [];
      for (const entry of await inner.list(folder)) {
        if (entry.directory) out.push(...(await filesUnder(entry.path)));
        else out.push(entry.path);
      }
      return out;
    };

    const recorder: WorkspaceFs = {
      get access() {
        return inner.access;
      },
      get rootName() {
        return inner.rootName;
      },
      readBytes: (path, o) => inner.readBytes(path, o),
      readText: (path, o) => inner.readText(path, o),
      list: (path, o) => inner.list(path, o),
      stat: (path) => inner.stat(path),
      mkdir: (path) => inner.mkdir(path),
      writeBytes: (path, data) => write(path, data, () => inner.writeBytes(path, data)),
      writeText: (path, text) => write(path, new TextEncoder().encode(text), () => inner.writeText(path, text)),
      async remove(raw, o) {
        const path = normalizeWorkspacePath(raw).path;
        const stat = await inner.stat(path);
        const paths = !stat ? [] : stat.directory ? (o?.recursive ? await filesUnder(path) : []) : [path];
        const befores: Array<[string, { sha: string; bytes: number | null }]> = [];
        for (const p of paths) {
          const before = await capture(p);
          if (before && before.sha !== ABSENT) befores.push([p, before]);
        }
        await inner.remove(raw, o);
        for (const [p, before] of befores) await record(p, before, null);
      },
      ...(inner.realPath ? { realPath: (path: string) => inner.realPath!(path) } : {}),
    };
    // The write policy travels with the fs (writePolicyOf): tools read it from ctx.fs, so the recorder carries the
    // one of the fs it wraps.
    return protectWrites(recorder, writePolicyOf(inner));
  };
  return { turn, fsFor };
}
