// The checkpoint store of headless `i`: in each session's folder (DIR/.i/sessions/NAME/checkpoints/). Node-only:
// reached through ./node.ts.
//
//   records.ndjson  one CheckpointRecord per line, appended (O_APPEND). A last line cut short by a crash is ignored
//                   on read (and dropped by the next rewrite); any other bad line refuses the session's checkpoints
//                   (E_CHECKPOINT_CORRUPT). Pruning rewrites the file atomically (temp file, rename).
//   blobs/<sha>     the bytes of one file state, written to a temp file and renamed.
// Neither is fsynced: checkpoints are an undo aid, not the session (whose log is fsynced). After a power loss the
// newest records may be missing, and a blob cut short reads as missing because every read checks the bytes against
// the name (the revert of that file then refuses with E_CHECKPOINT_MISSING) rather than restoring wrong bytes.
// Measured: an fsync costs about 3 ms here, more than the rest of a recorded write (CONTEXT.md).
// Identical contents are stored once per session folder; a blob's size is the record's beforeBytes/afterBytes.
// The cap is per workspace: every session folder under DIR/.i/sessions counts, and pruning drops the oldest
// records of any session (by time). Everything is read once per store and then kept in memory. One writer per
// session is assumed (the session store's lock covers its own files, not these).
import { createHash, randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../contracts';
import { checkSessionName, SESSION_NAME_PATTERN } from '../sessions/node';
import { SHA256_PATTERN, sha256Hex } from './hash';
import { planPrune } from './prune';
import { recordProblem } from './validate';
import { ABSENT, DEFAULT_CAP_BYTES, type CheckpointRecord, type CheckpointStore, type NewRecord } from './types';

interface SessionLog {
  next: number;
  /** Size of each blob the records name. */
  blobs: Map<string, number>;
  records: CheckpointRecord[];
  /** The file ends in a torn line: the next append must rewrite it first. */
  torn: boolean;
}

export interface NodeCheckpointStoreOptions {
  /** DIR/.i/sessions: the folder of every session of the workspace. */
  sessionsRoot: string;
  capBytes?: number;
}

const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;
// node:crypto here (Node only): faster than WebCrypto (1 MiB: 0.56–0.59 vs 0.68–0.81 ms), but it holds the event loop.
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/**
 * The port's digest: large contents through WebCrypto, which hashes on libuv's pool, so the recorder's read of the
 * prior state (and the file system's write aside) go on meanwhile; small ones at once (a hand-off costs more).
 */
const OFF_THREAD_BYTES = 256 * 1024;
const sha256Async = (bytes: Uint8Array): Promise<string> =>
  bytes.byteLength >= OFF_THREAD_BYTES ? sha256Hex(bytes) : Promise.resolve(sha256(bytes));

async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${randomUUID()}.tmp`;
  try {
    await fsp.writeFile(tmp, data, { flag: 'wx', mode: 0o600 });
    await fsp.rename(tmp, file);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
}

const blobsOf = (records: readonly CheckpointRecord[]) => {
  const out = new Map<string, number>();
  for (const r of records) {
    if (r.before !== ABSENT) out.set(r.before, r.beforeBytes ?? 0);
    if (r.after !== ABSENT) out.set(r.after, r.afterBytes ?? 0);
  }
  return out;
};

export function createNodeCheckpointStore(options: NodeCheckpointStoreOptions): CheckpointStore {
  const root = options.sessionsRoot;
  const capBytes = options.capBytes ?? DEFAULT_CAP_BYTES;
  const dirOf = (session: string) => {
    checkSessionName(session);
    return join(root, session, 'checkpoints');
  };
  const logs = new Map<string, SessionLog>();
  /** Blobs written and not yet named by a record, keyed `session/sha`: they count towards the cap already. */
  const pending = new Map<string, number>();
  /** Bytes of every blob in `logs` and `pending`, kept as they change (summing them on each append grew with history). */
  let usedTotal = 0;
  let allLoaded = false;
  /** Folders made by this store, so each write does not ask again. */
  const made = new Set<string>();

  const loading = new Map<string, Promise<SessionLog>>();
  /** The session's log, read once (concurrent callers share the one read, so its blobs are counted once). */
  function load(session: string): Promise<SessionLog> {
    const cached = logs.get(session);
    if (cached) return Promise.resolve(cached);
    let p = loading.get(session);
    if (!p) {
      p = readLog(session).finally(() => loading.delete(session));
      loading.set(session, p);
    }
    return p;
  }

  async function readLog(session: string): Promise<SessionLog> {
    const file = join(dirOf(session), 'records.ndjson');
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      text = '';
    }
    const lines = text.split('\n');
    const last = lines.pop()!; // '' when the file ends with a newline
    const records: CheckpointRecord[] = [];
    for (let i = 0; i < lines.length; i++) {
      let problem: string | null;
      let value: unknown;
      try {
        value = JSON.parse(lines[i]!);
        problem = recordProblem(value, session);
      } catch {
        problem = 'is not JSON';
      }
      if (problem) {
        throw new HarnessError(
          'E_CHECKPOINT_CORRUPT',
          `The checkpoints of the session "${session}" cannot be read: line ${i + 1} of ${file} ${problem}. Nothing was changed. Move that file away to start its checkpoints afresh (the files changed so far can then no longer be reverted).`,
          { session, file, line: i + 1 },
        );
      }
      records.push(value as CheckpointRecord);
    }
    const log: SessionLog = {
      next: (records.at(-1)?.seq ?? -1) + 1,
      blobs: blobsOf(records),
      records,
      torn: last !== '',
    };
    for (const size of log.blobs.values()) usedTotal += size;
    logs.set(session, log);
    return log;
  }

  async function loadAll(): Promise<void> {
    if (allLoaded) return;
    let names: string[] = [];
    try {
      names = await fsp.readdir(root);
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
    }
    for (const name of names) {
      if (!SESSION_NAME_PATTERN.test(name) || name.includes('..')) continue;
      try {
        await load(name);
      } catch (error) {
        // Another session's damaged checkpoints must not stop this one's writes; they stay as they are, uncounted.
        if (!HarnessError.isInstance(error)) throw error;
      }
    }
    allLoaded = true;
  }

  /** Appends to records.ndjson; its folder is made once per store (again if it went away), not on every append. */
  async function appendLines(session: string, text: string): Promise<void> {
    const dir = dirOf(session);
    const file = join(dir, 'records.ndjson');
    if (!made.has(dir)) {
      await fsp.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    try {
      await fsp.appendFile(file, text, { mode: 0o600 });
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      await fsp.mkdir(dir, { recursive: true });
      await fsp.appendFile(file, text, { mode: 0o600 });
    }
  }

  const rewrite = async (session: string, log: SessionLog) => {
    await fsp.mkdir(dirOf(session), { recursive: true });
    await writeAtomic(
      join(dirOf(session), 'records.ndjson'),
      log.records.map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
    log.torn = false;
  };

  const used = () => usedTotal;

  /** Writes one blob file in place (see putBlob), making its folder when needed. */
  async function writeBlob(session: string, sha: string, bytes: Uint8Array): Promise<void> {
    const dir = join(dirOf(session), 'blobs');
    if (!made.has(dir)) {
      await fsp.mkdir(dir, { recursive: true });
      made.add(dir);
    }
    const file = join(dir, sha);
    // Written in place, not through a temp file and a rename: a blob cut short is caught by the hash check on
    // read, and each extra file-system operation showed in the write path's cost. A file left by a crash is
    // reused when its size fits (checked on read as well), else replaced atomically.
    try {
      await fsp.writeFile(file, bytes, { flag: 'wx', mode: 0o600 }).catch(async (error: unknown) => {
        // The folder went away since this store made it (a session folder moved or deleted): make it again.
        if (!isErrno(error, 'ENOENT')) throw error;
        await fsp.mkdir(dir, { recursive: true });
        await fsp.writeFile(file, bytes, { flag: 'wx', mode: 0o600 });
      });
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
      if ((await fsp.stat(file)).size !== bytes.byteLength) await writeAtomic(file, bytes);
    }
  }

  const held = (session: string, sha: string) =>
    logs.get(session)?.blobs.has(sha) === true || pending.has(`${session}/${sha}`);

  /** Counts a blob as stored and not yet named by a record. */
  const hold = (session: string, sha: string, size: number) => {
    if (held(session, sha)) return;
    pending.set(`${session}/${sha}`, size);
    usedTotal += size;
  };

  /** Blob writes under way, so the same contents staged twice at once are written once and waited for. */
  const writing = new Map<string, Promise<void>>();
  /** Stores a blob unless held; counted (and named by records) from the start, uncounted again when it fails. */
  const storeBlob = (session: string, sha: string, bytes: Uint8Array): Promise<void> => {
    const key = `${session}/${sha}`;
    const under = writing.get(key);
    if (under) return under;
    if (held(session, sha)) return Promise.resolve();
    hold(session, sha, bytes.byteLength);
    const started = writeBlob(session, sha, bytes)
      .catch((error: unknown) => {
        // Not stored after all: no longer counted, nor held for a later write to skip (a record appended meanwhile
        // names contents that are missing, like pruned ones).
        if (pending.delete(key) || logs.get(session)?.blobs.delete(sha)) usedTotal -= bytes.byteLength;
        throw error;
      })
      .finally(() => writing.delete(key));
    writing.set(key, started);
    return started;
  };

  /** Stagings between their first blob and their record: contents they hold may be about to be named. */
  let staging = 0;
  /**
   * Removes contents held but named by no record (a staging that failed before its record). Not while another staging
   * is under way, which may be about to name the same contents: sweepOrphans takes those later.
   */
  const forgetUnnamed = async (session: string, sha: string) => {
    const key = `${session}/${sha}`;
    const size = pending.get(key);
    if (size === undefined || writing.has(key) || staging > 0) return;
    pending.delete(key);
    usedTotal -= size;
    await fsp.rm(join(dirOf(session), 'blobs', sha), { force: true });
  };

  const store: CheckpointStore = {
    capBytes,
    sha256: sha256Async,
    async putBlob(session, bytes, known) {
      const sha = known ?? sha256(bytes);
      await load(session);
      await storeBlob(session, sha, bytes);
      return sha;
    },
    async getBlob(session, sha) {
      if (!SHA256_PATTERN.test(sha)) return null;
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await fsp.readFile(join(dirOf(session), 'blobs', sha)));
      } catch (error) {
        // Missing, or something else in its place: not stored (like pruned contents).
        if (isErrno(error, 'ENOENT') || isErrno(error, 'EISDIR')) return null;
        throw error;
      }
      return sha256(bytes) === sha ? bytes : null;
    },
    async stageWrite(input, before, after) {
      await load(input.session);
      // Write-ahead: the prior contents reach the disk before the record that names them, and both before the file
      // changes. The new contents are written meanwhile and may still be under way when the record is appended
      // (`stored`: the recorder waits for them after the file write); a crash between leaves a record whose new
      // contents are missing, which costs the view of the agent's version, never the prior state.
      staging++;
      const stored = after && input.after !== ABSENT ? storeBlob(input.session, input.after, after) : Promise.resolve();
      stored.catch(() => undefined);
      let appended: Awaited<ReturnType<typeof store.appendMany>>;
      try {
        if (before && input.before !== ABSENT) await storeBlob(input.session, input.before, before);
        appended = await store.appendMany([input]);
        staging--;
      } catch (error) {
        staging--;
        // No record names them: the contents stored for this write go again (they would count towards the cap).
        await stored.catch(() => undefined);
        for (const sha of new Set([input.before, input.after]))
          if (sha !== ABSENT) await forgetUnnamed(input.session, sha);
        throw error;
      }
      const { records, pruned } = appended;
      const record = records[0]!;
      return {
        record,
        pruned,
        stored,
        async cancel() {
          await stored.catch(() => undefined);
          const log = logs.get(input.session)!;
          log.records = log.records.filter((r) => r !== record);
          await rewrite(input.session, log);
          // Contents only this record named are orphans now: they go (after the list that named them).
          for (const sha of new Set([record.before, record.after])) {
            if (sha === ABSENT || log.records.some((r) => r.before === sha || r.after === sha)) continue;
            usedTotal -= log.blobs.get(sha) ?? 0;
            log.blobs.delete(sha);
            await fsp.rm(join(dirOf(input.session), 'blobs', sha), { force: true });
          }
        },
      };
    },
    async append(input: NewRecord) {
      const { records, pruned } = await store.appendMany([input]);
      return { record: records[0]!, pruned };
    },
    async appendMany(inputs: readonly NewRecord[]) {
      await loadAll();
      for (const input of inputs) {
        const log = await load(input.session);
        for (const sha of new Set([input.before, input.after])) {
          if (sha !== ABSENT && !log.blobs.has(sha) && !pending.has(`${input.session}/${sha}`)) {
            throw new HarnessError(
              'E_CHECKPOINT_FAILED',
              `A checkpoint names contents (${sha.slice(0, 12)}…) that were not stored in the session "${input.session}". Store them with putBlob first.`,
              { sha },
            );
          }
        }
      }
      const added: CheckpointRecord[] = [];
      const lines = new Map<string, string>();
      for (const input of inputs) {
        const log = logs.get(input.session)!;
        const record: CheckpointRecord = { ...input, seq: log.next++ };
        log.records.push(record);
        added.push(record);
        lines.set(input.session, `${lines.get(input.session) ?? ''}${JSON.stringify(record)}\n`);
        for (const [sha, size] of [
          [record.before, record.beforeBytes],
          [record.after, record.afterBytes],
        ] as const) {
          if (sha === ABSENT) continue;
          // The size of the bytes stored wins over the record's (they agree when the recorder wrote both).
          log.blobs.set(sha, pending.get(`${input.session}/${sha}`) ?? log.blobs.get(sha) ?? size ?? 0);
          pending.delete(`${input.session}/${sha}`);
        }
      }
      // Oldest first over the whole workspace: by time, then by order within a session. Only when over the cap:
      // gathering and sorting every record on each append grew with the history.
      const over = used() > capBytes;
      const all = over ? [...logs.values()].flatMap((x) => x.records).sort((a, b) => a.at - b.at || a.seq - b.seq) : [];
      const sizeOf = (blob: string) => {
        const slash = blob.indexOf('/');
        return logs.get(blob.slice(0, slash))?.blobs.get(blob.slice(slash + 1)) ?? 0;
      };
      const plan = over
        ? planPrune(all, (r, sha) => `${r.session}/${sha}`, sizeOf, used(), capBytes, added)
        : { pruned: null, drop: [], markers: [], freeBlobs: [] };
      const rewritten = new Set<string>();
      const freed = new Map<string, string[]>();
      if (plan.pruned) {
        const dropped = new Set(plan.drop);
        for (const [session, log] of logs) {
          if (!log.records.some((r) => dropped.has(r)) && !plan.markers.some((m) => m.session === session)) continue;
          log.records = log.records.filter((r) => !dropped.has(r));
          rewritten.add(session);
        }
        for (const blob of plan.freeBlobs) {
          const slash = blob.indexOf('/');
          const session = blob.slice(0, slash);
          usedTotal -= sizeOf(blob);
          logs.get(session)!.blobs.delete(blob.slice(slash + 1));
          freed.set(session, [...(freed.get(session) ?? []), blob.slice(slash + 1)]);
        }
      }
      for (const [session, text] of lines) {
        const log = logs.get(session)!;
        if (rewritten.has(session) || log.torn) {
          rewritten.add(session);
          continue;
        }
        await appendLines(session, text);
      }
      for (const session of rewritten) await rewrite(session, logs.get(session)!);
      // Blob files go after the lists that no longer name them: a crash in between leaves an orphan file, never a
      // record without its bytes.
      for (const [session, shas] of freed)
        for (const sha of shas) await fsp.rm(join(dirOf(session), 'blobs', sha), { force: true });
      return { records: added, pruned: plan.pruned };
    },
    async lastTurn(session) {
      let max = 0;
      for (const r of (await load(session)).records) if (r.kind === 'turn' && r.turn > max) max = r.turn;
      return max;
    },
    async list(session) {
      if (session !== undefined) return [...(await load(session)).records];
      await loadAll();
      return [...logs.values()].flatMap((x) => x.records).sort((a, b) => a.at - b.at || a.seq - b.seq);
    },
    async usedBytes() {
      await loadAll();
      return used();
    },
    async dropSession(session) {
      const log = await load(session);
      let bytes = 0;
      for (const size of log.blobs.values()) bytes += size;
      for (const [key, size] of pending) {
        if (!key.startsWith(`${session}/`)) continue;
        bytes += size;
        pending.delete(key);
      }
      // Each session keeps its own contents: its folder goes whole, and nothing of another session with it.
      const blobs = log.blobs.size;
      await fsp.rm(dirOf(session), { recursive: true, force: true });
      usedTotal -= bytes;
      logs.set(session, { next: 0, blobs: new Map(), records: [], torn: false });
      made.delete(join(dirOf(session), 'blobs'));
      made.delete(dirOf(session));
      return { blobs, bytes };
    },
    async sweepOrphans(only) {
      await (only === undefined ? loadAll() : load(only));
      let blobs = 0;
      let bytes = 0;
      for (const [session, log] of logs) {
        if (only !== undefined && session !== only) continue;
        let names: string[];
        try {
          names = await fsp.readdir(join(dirOf(session), 'blobs'));
        } catch (error) {
          if (isErrno(error, 'ENOENT')) continue;
          throw error;
        }
        for (const name of names) {
          // Named by a record: kept. Temp files of writeAtomic are left alone. Stored and not named (yet) is an
          // orphan: this runs between turns, never while a write is staged.
          if (!SHA256_PATTERN.test(name) || log.blobs.has(name)) continue;
          const file = join(dirOf(session), 'blobs', name);
          const size = await fsp.stat(file).then(
            (st) => st.size,
            () => 0,
          );
          if (pending.delete(`${session}/${name}`)) usedTotal -= size;
          await fsp.rm(file, { force: true });
          blobs++;
          bytes += size;
        }
      }
      return { blobs, bytes };
    },
  };
  return store;
}
