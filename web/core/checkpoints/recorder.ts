// The recorder: a WorkspaceFs per tool call that keeps the state of every file the call writes or deletes, before
// and after, in a CheckpointStore. The loop hands it to tools as `ToolContext.fs` (TurnDeps.checkpoints), so the
// built-in write/edit and plugin fs.write (host-ops.ts writes through the same ctx.fs) are recorded alike.
// Bridge and native tools change files outside this fs: they cannot be recorded (CONTEXT.md).
//
// Write-ahead: before a file changes, what it holds NOW is read (a person's edit since the agent's last write must
// become this write's "before") and stored with the new contents and the write's record in one store write
// (stageWrite); only then is the file written. A write whose states cannot be stored is refused (E_CHECKPOINT_FAILED)
// before the file is touched: an undo must never be promised and then be missing. A file write that fails drops its
// record again.
import { HarnessError, toErrorData, type ErrorData } from '../contracts';
import {
  judgeRemove,
  normalizeWorkspacePath,
  withWritePolicyOf,
  type CommandChanges,
  type WorkspaceFs,
  type WriteOptions,
} from '../contracts';
import { ABSENT, type CheckpointStore, type Pruned, type StagedWrite } from './types';

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
  /**
   * TurnDeps.checkpoints.commandChangesFor: what a command of one tool call changes, recorded into this turn (set by
   * a host that can watch a real folder: headless `i`, `createCommandRecorder` in ./node.ts).
   */
  commandChangesFor?(call: { id: string; name: string; step: number }): CommandChanges;
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
export async function startTurnCheckpoints(
  options: TurnCheckpointOptions & { turn?: number; turnId?: string },
): Promise<TurnCheckpoints> {
  const { store, session } = options;
  const now = options.now ?? Date.now;
  const turn = options.turn ?? (await nextTurn(store, session));
  const marker = await store.append({
    kind: 'turn',
    session,
    turn,
    step: 0,
    callId: options.turnId ?? '',
    tool: '',
    path: '',
    before: ABSENT,
    after: ABSENT,
    beforeBytes: null,
    afterBytes: null,
    at: now(),
  });
  if (marker.pruned) options.onEvent?.({ type: 'pruned', pruned: marker.pruned });
  const last = lastWrittenOf(store);

  const fsFor = (call: { id: string; name: string; step: number }, inner: WorkspaceFs): WorkspaceFs => {
    const emit = (event: CheckpointEvent) => options.onEvent?.(event);
    /**
     * What this call last read at each path (null: found missing) and when. A tool reads the file just before
     * writing it (write and edit check it is still what the person approved): that read is the write's "before"
     * when it is at most REUSE_READ_MS old, instead of reading the file a second time.
     */
    const seen = new Map<string, { bytes: Uint8Array | null; at: number }>();
    const saw = (raw: string, bytes: Uint8Array | null) =>
      seen.set(normalizeWorkspacePath(raw).path, { bytes, at: performance.now() });
    const refuse = (path: string, error: unknown) => {
      const e = toErrorData(error, 'E_CHECKPOINT_FAILED');
      return new HarnessError(
        'E_CHECKPOINT_FAILED',
        `${path} was not changed: its current contents could not be saved for undo (${e.code}: ${e.message}). ${
          e.code === 'E_FS_TOO_LARGE'
            ? 'A file over the read limit cannot be kept for undo; change it outside the agent.'
            : 'Free browser storage or disk space and try again.'
        }`,
        { path, cause: e },
      );
    };

    /**
     * Reads what `path` holds now and stores it with the write's record, before the write. Null when it is a folder
     * (the write fails on its own). One read, no separate stat: a missing file is the read's refusal.
     */
    const stage = async (path: string, after: Uint8Array | null): Promise<StagedWrite | null> => {
      const key = `${session}\n${path}`;
      const fresh = seen.get(path);
      seen.delete(path);
      try {
        const reuse = fresh !== undefined && performance.now() - fresh.at <= REUSE_READ_MS;
        const reading = reuse
          ? Promise.resolve(fresh.bytes)
          : inner.readBytes(path).catch((error: unknown) => {
              const code = HarnessError.isInstance(error) ? error.code : '';
              if (code === 'E_FS_NOT_FILE') return 'directory' as const;
              // Nothing there (or a parent that is a file, or a dangling link: what stat calls null).
              if (code === 'E_FS_NOT_FOUND' || code === 'E_FS_NOT_DIRECTORY' || code === 'E_FS_BROKEN_LINK')
                return null;
              throw error;
            });
        // The new contents are hashed while the read is under way.
        const afterSha = after === null ? ABSENT : await store.sha256(after);
        const prior = await reading;
        if (prior === 'directory') return null;
        // What this store last wrote there, byte for byte: its hash is known (a compare is cheaper than a digest).
        const mine = last.get(key);
        const before =
          prior === null ? ABSENT : mine && sameBytes(mine.bytes, prior) ? mine.sha : await store.sha256(prior);
        return await store.stageWrite(
          {
            kind: 'write',
            session,
            turn,
            step: call.step,
            callId: call.id,
            tool: call.name,
            path,
            before,
            after: afterSha,
            beforeBytes: prior?.byteLength ?? null,
            afterBytes: after?.byteLength ?? null,
            at: now(),
          },
          prior,
          after,
        );
      } catch (error) {
        last.delete(key);
        throw refuse(path, error);
      }
    };

    /** After the file changed (or was removed): the record kept in mind and reported. */
    const settled = (path: string, staged: StagedWrite, after: Uint8Array | null) => {
      const key = `${session}\n${path}`;
      const r = staged.record;
      if (after) last.set(key, r.after, after);
      else last.delete(key);
      emit({ type: 'recorded', path, turn, callId: call.id, tool: call.name, before: r.before, after: r.after });
      if (staged.pruned) emit({ type: 'pruned', pruned: staged.pruned });
    };

    /** A file write that failed: its record goes again, with the contents only it named. */
    const dropStaged = async (path: string, staged: StagedWrite | null) => {
      last.delete(`${session}\n${path}`);
      await staged?.cancel().catch(() => undefined);
    };

    /**
     * The prior state is staged in the fs's beforeCommit: while the new contents are written aside (a temporary or
     * swap file), before they replace the file. A backend that never called it, changed the file before it settled or
     * called it twice wrote without a checkpoint it could trust: refused loudly and the record dropped (every backend of
     * this house calls it once and waits; workspace-fs-suite.ts holds them to it).
     */
    const write = async (raw: string, bytes: Uint8Array, run: (options: WriteOptions) => Promise<void>) => {
      const path = normalizeWorkspacePath(raw).path;
      let staged: StagedWrite | null = null;
      let hook: Promise<void> | undefined;
      let hookSettled = false;
      const broken = (how: string) =>
        new HarnessError(
          'E_CHECKPOINT_FAILED',
          `${path} was written by a file system that ${how} (WriteOptions.beforeCommit), so no undo is kept for it. This is a bug in i: please report it.`,
          { path },
        );
      try {
        await run({
          beforeCommit: () => {
            if (hook) return Promise.reject(broken('asked to keep its prior state twice'));
            hook = stage(path, bytes)
              .then((s) => void (staged = s))
              .finally(() => void (hookSettled = true));
            return hook;
          },
        });
      } catch (error) {
        await hook?.catch(() => undefined);
        await dropStaged(path, staged);
        throw error;
      }
      if (!hook || !hookSettled) {
        await hook?.catch(() => undefined);
        await dropStaged(path, staged);
        throw broken(
          hook ? 'changed the file before its prior state was kept' : 'gave no chance to keep its prior state',
        );
      }
      if (!staged) return;
      settled(path, staged, bytes);
      // New contents a store writes alongside the file: the write is done when they are. Failing there loses only
      // the view of this version (the prior state was stored before the file changed), so it does not fail the write.
      await (staged as StagedWrite).stored?.catch(() => undefined);
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
      async readBytes(path, o) {
        const bytes = await inner.readBytes(path, o);
        saw(path, bytes);
        return bytes;
      },
      readText: (path, o) => inner.readText(path, o),
      list: (path, o) => inner.list(path, o),
      async stat(path) {
        const stat = await inner.stat(path);
        if (stat === null) saw(path, null);
        return stat;
      },
      mkdir: (path) => inner.mkdir(path),
      writeBytes: (path, data) => write(path, data, (o) => inner.writeBytes(path, data, o)),
      writeText: (path, text) => write(path, new TextEncoder().encode(text), (o) => inner.writeText(path, text, o)),
      async remove(raw, o) {
        // Judged before anything is read or staged, as the wrapped fs would judge it (a protected folder is refused
        // with E_PATH_PROTECTED, never read into the store first).
        await judgeRemove(inner, raw);
        const path = normalizeWorkspacePath(raw).path;
        const stat = await inner.stat(path);
        const paths = !stat ? [] : stat.directory ? (o?.recursive ? await filesUnder(path) : []) : [path];
        const staged: Array<[string, StagedWrite]> = [];
        try {
          for (const p of paths) {
            const s = await stage(p, null);
            if (s && s.record.before !== ABSENT) staged.push([p, s]);
            else await s?.cancel();
          }
          await inner.remove(raw, o);
        } catch (error) {
          for (const [p, s] of staged) await dropStaged(p, s);
          throw error;
        }
        // Removed: nothing to store after, each record stays.
        for (const [p, s] of staged) settled(p, s, null);
      },
      ...(inner.realPath ? { realPath: (path: string) => inner.realPath!(path) } : {}),
    };
    // The write policy travels with the fs (writePolicyOf): tools read it from ctx.fs, so the recorder carries the
    // one of the fs it wraps, which judges every write the recorder passes on.
    return withWritePolicyOf(recorder, inner);
  };
  return { turn, fsFor };
}

/**
 * How old a tool's own read of a file may be for its write to take it as the prior state. Built-in tools read and
 * write within a millisecond or two; the bound keeps the window a person's edit could slip through as small as
 * reading the file again would (a slower tool's write reads afresh).
 */
const REUSE_READ_MS = 100;

/** Byte-for-byte equality, a word at a time where the views allow it. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  const n = a.byteLength;
  let i = 0;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const wa = new Uint32Array(a.buffer, a.byteOffset, n >>> 2);
    const wb = new Uint32Array(b.buffer, b.byteOffset, n >>> 2);
    for (let k = 0; k < wa.length; k++) if (wa[k] !== wb[k]) return false;
    i = wa.length * 4;
  }
  for (; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Most bytes of the agent's own writes kept in memory per store, to check a file against without hashing it. */
const LAST_WRITTEN_BYTES = 32 * 1024 * 1024;

interface LastWritten {
  get(key: string): { sha: string; bytes: Uint8Array } | undefined;
  set(key: string, sha: string, bytes: Uint8Array): void;
  delete(key: string): void;
}

const lastWritten = new WeakMap<CheckpointStore, LastWritten>();

/**
 * What the recorder last wrote at each session/path of a store, newest kept first, at most LAST_WRITTEN_BYTES. Only
 * ever compared byte for byte with a fresh read, so a stale entry costs a digest, never a wrong "before".
 */
function lastWrittenOf(store: CheckpointStore): LastWritten {
  let cache = lastWritten.get(store);
  if (cache) return cache;
  const entries = new Map<string, { sha: string; bytes: Uint8Array }>();
  let total = 0;
  const drop = (key: string) => {
    const e = entries.get(key);
    if (e) total -= e.bytes.byteLength;
    entries.delete(key);
  };
  cache = {
    get: (key) => entries.get(key),
    set(key, sha, bytes) {
      drop(key);
      if (bytes.byteLength > LAST_WRITTEN_BYTES / 4) return;
      entries.set(key, { sha, bytes });
      total += bytes.byteLength;
      for (const k of entries.keys()) {
        if (total <= LAST_WRITTEN_BYTES) break;
        drop(k);
      }
    },
    delete: drop,
  };
  lastWritten.set(store, cache);
  return cache;
}
