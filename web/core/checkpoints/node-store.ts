// The checkpoint store of headless `i`: in each session's folder (DIR/.i/sessions/NAME/checkpoints/). Node-only:
// reached through ./node.ts.
//
//   records.json   {version, next, blobs: {sha: size}, records: [...]}: replaced atomically (temp file in the same
//                  folder, fsync, rename), so a reader sees the old list or the new one;
//   blobs/<sha>    the bytes of one file state, written to a temp file and renamed. Not fsynced: a blob is checked
//                  against its name on every read, so one cut short by a crash reads as missing (the revert of that
//                  file then refuses with E_CHECKPOINT_MISSING) instead of restoring wrong bytes.
// Identical contents are stored once per session folder. The cap is per workspace: every session folder under
// DIR/.i/sessions counts, and pruning drops the oldest records of any session (by time). Sizes are read once per
// store and then kept up to date in memory. One writer per session is assumed (the session store's lock covers
// its own files, not these).
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { HarnessError } from '../errors';
import { checkSessionName, SESSION_NAME_PATTERN } from '../sessions/node';
import { sha256Hex, SHA256_PATTERN } from './hash';
import { planPrune } from './prune';
import { checkRecords } from './validate';
import { ABSENT, DEFAULT_CAP_BYTES, type AppendResult, type CheckpointRecord, type CheckpointStore, type NewRecord } from './types';

const FORMAT_VERSION = 1;

interface SessionFile {
  version: number;
  next: number;
  blobs: Record<string, number>;
  records: CheckpointRecord[];
}

export interface NodeCheckpointStoreOptions {
  /** DIR/.i/sessions: the folder of every session of the workspace. */
  sessionsRoot: string;
  capBytes?: number;
}

const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

async function writeAtomic(file: string, data: string | Uint8Array, durable: boolean): Promise<void> {
  const tmp = `${file}.${randomUUID()}.tmp`;
  const handle = await fsp.open(tmp, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fsp.rename(tmp, file);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
}

export function createNodeCheckpointStore(options: NodeCheckpointStoreOptions): CheckpointStore {
  const root = options.sessionsRoot;
  const capBytes = options.capBytes ?? DEFAULT_CAP_BYTES;
  const dirOf = (session: string) => {
    checkSessionName(session);
    return join(root, session, 'checkpoints');
  };
  const files = new Map<string, SessionFile>();
  /** Blobs written and not yet named by a record, keyed `session/sha`: they count towards the cap already. */
  const pending = new Map<string, number>();
  let allLoaded = false;

  async function load(session: string): Promise<SessionFile> {
    const cached = files.get(session);
    if (cached) return cached;
    const file = join(dirOf(session), 'records.json');
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (error) {
      if (!isErrno(error, 'ENOENT')) throw error;
      const empty: SessionFile = { version: FORMAT_VERSION, next: 0, blobs: {}, records: [] };
      files.set(session, empty);
      return empty;
    }
    const corrupt = (why: string) =>
      new HarnessError(
        'E_CHECKPOINT_CORRUPT',
        `The checkpoints of the session "${session}" cannot be read: ${file} ${why}. Nothing was changed. Move that folder away to start its checkpoints afresh (the files changed so far can then no longer be reverted).`,
        { session, file },
      );
    let parsed: SessionFile;
    try {
      parsed = JSON.parse(text) as SessionFile;
    } catch {
      throw corrupt('is not valid JSON');
    }
    if (parsed?.version !== FORMAT_VERSION) throw corrupt(`has format ${String(parsed?.version)}, which this version of i does not read`);
    const problem = checkRecords(parsed.records, session) ?? (Number.isSafeInteger(parsed.next) && typeof parsed.blobs === 'object' && parsed.blobs !== null ? null : 'has no valid "next" or "blobs"');
    if (problem) throw corrupt(problem);
    files.set(session, parsed);
    return parsed;
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

  const save = async (session: string, f: SessionFile) => {
    await fsp.mkdir(dirOf(session), { recursive: true });
    await writeAtomic(join(dirOf(session), 'records.json'), JSON.stringify(f), true);
  };

  const used = () => {
    let n = 0;
    for (const f of files.values()) for (const size of Object.values(f.blobs)) n += size;
    for (const size of pending.values()) n += size;
    return n;
  };

  return {
    capBytes,
    async putBlob(session, bytes) {
      const sha = await sha256Hex(bytes);
      const f = await load(session);
      if (f.blobs[sha] !== undefined || pending.has(`${session}/${sha}`)) return sha;
      const dir = join(dirOf(session), 'blobs');
      await fsp.mkdir(dir, { recursive: true });
      const file = join(dir, sha);
      // A file left by a crash between the blob and the list is reused when its size fits (checked on read).
      const exists = await fsp.stat(file).then((s) => s.size === bytes.byteLength, () => false);
      if (!exists) await writeAtomic(file, bytes, false);
      pending.set(`${session}/${sha}`, bytes.byteLength);
      return sha;
    },
    async getBlob(session, sha) {
      if (!SHA256_PATTERN.test(sha)) return null;
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await fsp.readFile(join(dirOf(session), 'blobs', sha)));
      } catch (error) {
        if (isErrno(error, 'ENOENT')) return null;
        throw error;
      }
      return (await sha256Hex(bytes)) === sha ? bytes : null;
    },
    async append(input: NewRecord): Promise<AppendResult> {
      await loadAll();
      const f = await load(input.session);
      for (const sha of new Set([input.before, input.after])) {
        if (sha !== ABSENT && f.blobs[sha] === undefined && !pending.has(`${input.session}/${sha}`)) {
          throw new HarnessError('E_CHECKPOINT_FAILED', `A checkpoint names contents (${sha.slice(0, 12)}…) that were not stored in the session "${input.session}". Store them with putBlob first.`, { sha });
        }
      }
      const record: CheckpointRecord = { ...input, seq: f.next };
      f.next += 1;
      f.records.push(record);
      for (const sha of [record.before, record.after]) {
        const size = pending.get(`${input.session}/${sha}`);
        if (size === undefined) continue;
        f.blobs[sha] = size;
        pending.delete(`${input.session}/${sha}`);
      }
      // Oldest first over the whole workspace: by time, then by order within a session.
      const all = [...files.values()].flatMap((x) => x.records).sort((a, b) => a.at - b.at || a.seq - b.seq);
      const sizeOf = (blob: string) => {
        const slash = blob.indexOf('/');
        return files.get(blob.slice(0, slash))?.blobs[blob.slice(slash + 1)] ?? 0;
      };
      const plan = planPrune(all, (r, sha) => `${r.session}/${sha}`, sizeOf, used(), capBytes, record);
      const freed = new Map<string, string[]>([[input.session, []]]);
      if (plan.pruned) {
        const dropped = new Set(plan.drop);
        for (const x of files.values()) if (x.records.some((r) => dropped.has(r))) x.records = x.records.filter((r) => !dropped.has(r));
        for (const blob of plan.freeBlobs) {
          const slash = blob.indexOf('/');
          const session = blob.slice(0, slash);
          delete files.get(session)!.blobs[blob.slice(slash + 1)];
          freed.set(session, [...(freed.get(session) ?? []), blob.slice(slash + 1)]);
        }
        // Markers are the stored objects themselves (planPrune marked them): their sessions are saved too.
        for (const r of [...plan.drop, ...plan.markers]) if (!freed.has(r.session)) freed.set(r.session, []);
      }
      for (const session of freed.keys()) await save(session, files.get(session)!);
      // Blob files go after the lists that no longer name them: a crash in between leaves an orphan file, never a
      // record without its bytes.
      for (const [session, shas] of freed) for (const sha of shas) await fsp.rm(join(dirOf(session), 'blobs', sha), { force: true });
      return { record, pruned: plan.pruned };
    },
    async list(session) {
      if (session !== undefined) return [...(await load(session)).records];
      await loadAll();
      return [...files.values()].flatMap((x) => x.records).sort((a, b) => a.at - b.at || a.seq - b.seq);
    },
    async usedBytes() {
      await loadAll();
      return used();
    },
  };
}
