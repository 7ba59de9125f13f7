// Node implementation of the SessionStore port for the headless `i` (DIR/.i/sessions/NAME/). Node-only: reached
// through web/core/node.ts.
//
// Layout of one session folder:
//   log.ndjson       append-only entries, one `{"seq":N,"entry":{...}}` line each;
//   checkpoint.json  the committed pointer and metadata: `{version, id, workspace, title, ..., checkpointSeq,
//                    logBytes}`, replaced atomically (write a temp file, fsync, rename).
// A commit appends (and fsyncs) the new lines first, then replaces checkpoint.json. A crash in between leaves
// lines past `logBytes`: readers ignore them and the next commit truncates them. So the last complete checkpoint
// always loads, and a commit writes only the new entries plus one small file.
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { HarnessError, toErrorData } from '../contracts';
import { readFromReset } from './node-log-tail';
import { entryProblem, replayEntries } from './replay';
import { checkSessionTitle } from './title';
import {
  SESSION_FORMAT_VERSION,
  type CreateSession,
  type LoadedSession,
  type SessionEntry,
  type SessionInfo,
  type SessionStore,
} from './types';

/** --session-name: a plain folder name, never a path (seed: "validated: no path characters"). */
export const SESSION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function checkSessionName(name: string): void {
  if (!SESSION_NAME_PATTERN.test(name) || name.includes('..')) {
    throw new HarnessError(
      'E_SESSION_NAME_INVALID',
      `The session name "${name}" is not allowed. Use 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit (no "/", "\\" or "..").`,
      { name },
    );
  }
}

interface CheckpointFile extends SessionInfo {
  version: number;
  /** Canonical absolute path of the workspace folder the session belongs to. */
  workspace: string;
  logBytes: number;
  /**
   * seq and byte offset of the last committed `reset` line (a hint; older checkpoints lack it). Replaying from any
   * reset on gives the whole log's history, so `load` reads only the bytes from there on.
   */
  resetSeq?: number;
  resetBytes?: number;
}

export interface FileSessionStoreOptions {
  /** The sessions folder, e.g. DIR/.i/sessions. */
  root: string;
  /** Canonical (realpath) workspace folder; a session written for another folder is refused. */
  workspace: string;
  workspaceId?: string;
  /** Test seam: runs after the log append and before the pointer moves (a throw simulates a crash there). */
  failpoint?: (stage: 'appended') => void;
}

/** Lock files this process holds right now: a second writer in the same process is refused too (E_SESSION_BUSY). */
const held = new Set<string>();

/**
 * Runs `fn` holding DIR/lock (created exclusively, holding our pid). A lock whose process is gone is stale and
 * taken over; a live one means another `i` is writing this session: E_SESSION_BUSY. A missing folder means the
 * session was removed meanwhile: E_SESSION_GONE.
 */
async function withLock<T>(dir: string, id: string, fn: () => Promise<T>): Promise<T> {
  const file = join(dir, 'lock');
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await fsp.open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw gone(id, dir, error);
      if (code !== 'EEXIST' || attempt > 0) throw busy(id, error);
      const pid = Number(await fsp.readFile(file, 'utf8').catch(() => ''));
      // Our own pid in a lock we do not hold is a leftover of a failed commit in this process.
      if (Number.isInteger(pid) && pid > 0 && (pid === process.pid ? held.has(file) : alive(pid)))
        throw busy(id, error);
      await fsp.rm(file, { force: true });
    }
  }
  held.add(file);
  try {
    return await fn();
  } catch (error) {
    throw (error as NodeJS.ErrnoException).code === 'ENOENT' ? gone(id, dir, error) : error;
  } finally {
    held.delete(file);
    await fsp.rm(file, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const busy = (id: string, cause: unknown) =>
  new HarnessError(
    'E_SESSION_BUSY',
    `Another i process (or another save in this one) is writing the session "${id}" right now. Wait for it to finish and try again, or use another --session-name.`,
    { id },
    { cause },
  );

const gone = (id: string, dir: string, cause: unknown) =>
  new HarnessError(
    'E_SESSION_GONE',
    `The session folder ${dir} (or a file in it) was removed while this run was saving to it, so this step was not saved. To keep the conversation in a session, run i again with --session-name (the same name starts a new session).`,
    { id, dir },
    { cause },
  );

const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | null)?.code === code;

/** Why a parsed checkpoint.json is not one (the fields that are wrong), or null. The version is checked first. */
function checkpointProblem(cp: Record<string, unknown>): string | null {
  const bad: string[] = [];
  const int = (v: unknown, min: number) => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
  for (const key of ['workspace', 'workspaceId', 'title'] as const) if (typeof cp[key] !== 'string') bad.push(key);
  for (const key of ['createdAt', 'updatedAt'] as const)
    if (typeof cp[key] !== 'number' || !Number.isFinite(cp[key])) bad.push(key);
  if (!int(cp.checkpointSeq, -1)) bad.push('checkpointSeq');
  if (!int(cp.logBytes, 0)) bad.push('logBytes');
  // Nothing committed means an empty log, and the other way round.
  else if (int(cp.checkpointSeq, -1) && (cp.checkpointSeq === -1) !== (cp.logBytes === 0))
    bad.push('checkpointSeq/logBytes');
  for (const key of ['resetSeq', 'resetBytes'] as const) if (cp[key] !== undefined && !int(cp[key], 0)) bad.push(key);
  const fork = cp.forkedFrom as { sessionId?: unknown; messageIndex?: unknown } | undefined;
  if (
    fork !== undefined &&
    (typeof fork !== 'object' || fork === null || typeof fork.sessionId !== 'string' || !int(fork.messageIndex, 0))
  )
    bad.push('forkedFrom');
  return bad.length > 0 ? `invalid ${bad.join(', ')}` : null;
}

export function createFileSessionStore(options: FileSessionStoreOptions): SessionStore {
  const { root, workspace } = options;
  const workspaceId = options.workspaceId ?? workspace;
  const dirOf = (id: string) => {
    checkSessionName(id);
    return join(root, id);
  };

  async function readCheckpoint(id: string): Promise<CheckpointFile | null> {
    const file = join(dirOf(id), 'checkpoint.json');
    let text: string;
    try {
      text = await fsp.readFile(file, 'utf8');
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return null;
      throw error;
    }
    const corrupt = (what: string) =>
      new HarnessError(
        'E_SESSION_CORRUPT',
        `The session "${id}" cannot be opened: its ${file} ${what}. Nothing was changed. Restore that file from a backup, or move the folder ${dirOf(id)} away (its log.ndjson still holds the conversation) and use another --session-name.`,
        { id, file },
      );
    let cp: Record<string, unknown>;
    try {
      cp = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw corrupt('is not valid JSON (cut short or edited)');
    }
    if (typeof cp !== 'object' || cp === null || Array.isArray(cp))
      throw corrupt('is not a session checkpoint (not a JSON object)');
    if (cp.version !== SESSION_FORMAT_VERSION) {
      if (typeof cp.version === 'number' && cp.version > SESSION_FORMAT_VERSION) {
        throw new HarnessError(
          'E_SESSION_VERSION',
          `The session "${id}" was written by a newer i (format ${cp.version}; this i reads format ${SESSION_FORMAT_VERSION}). Update i, or use another --session-name; nothing was changed.`,
          { id, version: cp.version },
        );
      }
      throw corrupt(
        cp.version === undefined
          ? 'is not a session checkpoint (no "version")'
          : `has an unknown format version ${JSON.stringify(cp.version)}`,
      );
    }
    const problem = checkpointProblem(cp);
    if (problem) throw corrupt(`is not a valid session checkpoint (${problem})`);
    if (cp.workspace !== workspace) {
      throw new HarnessError(
        'E_SESSION_WORKSPACE_MISMATCH',
        `The session "${id}" belongs to the workspace ${String(cp.workspace)}, not ${workspace}. Use another session name, or run i in that folder.`,
        { id, expected: workspace, found: cp.workspace },
      );
    }
    // The folder is the session's identity: a copied folder is its own session and never writes into the original.
    return { ...(cp as unknown as CheckpointFile), id };
  }

  async function writeCheckpoint(cp: CheckpointFile): Promise<void> {
    const dir = dirOf(cp.id);
    const tmp = join(dir, `checkpoint.json.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
    const handle = await fsp.open(tmp, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(cp, null, 2));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, join(dir, 'checkpoint.json'));
  }

  const info = (cp: CheckpointFile): SessionInfo => {
    const out: SessionInfo = {
      id: cp.id,
      workspaceId: cp.workspaceId,
      title: cp.title,
      createdAt: cp.createdAt,
      updatedAt: cp.updatedAt,
      checkpointSeq: cp.checkpointSeq,
    };
    if (cp.forkedFrom) out.forkedFrom = cp.forkedFrom;
    return out;
  };

  async function mustRead(id: string): Promise<CheckpointFile> {
    const cp = await readCheckpoint(id);
    if (!cp) throw new HarnessError('E_SESSION_NOT_FOUND', `There is no session "${id}" in this workspace.`, { id });
    return cp;
  }

  /** The committed part of the log, line by line, or a refusal naming the first damaged line. Never writes. */
  async function readLog(id: string, cp: CheckpointFile): Promise<SessionEntry[]> {
    const { entries, damage } = await scanLog(id, cp);
    if (damage) throw damage;
    return entries;
  }

  /** The committed entries up to the first damaged line, and the refusal naming that line (null: all intact). */
  async function scanLog(
    id: string,
    cp: CheckpointFile,
  ): Promise<{ entries: SessionEntry[]; damage: HarnessError | null }> {
    const dir = dirOf(id);
    const file = join(dir, 'log.ndjson');
    const damaged = (detail: string, intact: number, data: Record<string, unknown> = {}) =>
      new HarnessError(
        'E_SESSION_CORRUPT',
        `The session "${id}" cannot be loaded: ${detail}. ${intact > 0 ? `Entries 0–${intact - 1} are intact` : 'No entry is intact'}; nothing was changed or removed. ${intact > 0 ? `Copy the intact part into a new session with \`i -C ${JSON.stringify(workspace)} --session-name ${id} --recover NEW_NAME\` (this one stays as it is), restore` : 'Restore'} ${file} from a backup, or move the folder ${dir} away (keep it to copy text out of it) and use another --session-name.`,
        { id, file, intactEntries: intact, checkpointSeq: cp.checkpointSeq, ...data },
      );
    let buf: Buffer;
    let size: number;
    try {
      const handle = await fsp.open(file, 'r');
      try {
        size = (await handle.stat()).size;
        buf = Buffer.alloc(Math.min(size, cp.logBytes));
        await handle.read(buf, 0, buf.length, 0);
      } finally {
        await handle.close();
      }
    } catch (error) {
      // A missing log with nothing committed loses nothing; else the Node error goes to the caller, which names
      // the folder and the fix (headless/run.ts, E_SESSION_FAILED).
      if (isErrno(error, 'ENOENT') && cp.checkpointSeq === -1) return { entries: [], damage: null };
      throw error;
    }
    const decoder = new TextDecoder('utf-8', { fatal: true });
    const entries: SessionEntry[] = [];
    let start = 0;
    for (let line = 1; start < buf.length; line++) {
      const nl = buf.indexOf(0x0a, start);
      const end = nl === -1 ? buf.length : nl;
      const where = `line ${line} of ${file} (entry ${entries.length}, at byte ${start})`;
      // A last line without its newline inside the committed bytes: the file was changed after the commit.
      if (nl === -1 && buf.length === cp.logBytes)
        return { entries, damage: damaged(`${where} is cut short`, entries.length, { line }) };
      if (nl === -1) break;
      let row: unknown;
      try {
        row = JSON.parse(decoder.decode(buf.subarray(start, end)));
      } catch (error) {
        const why =
          error instanceof SyntaxError
            ? 'is not valid JSON'
            : error instanceof TypeError
              ? 'is not valid UTF-8'
              : `cannot be read (${String(error)})`;
        return { entries, damage: damaged(`${where} ${why}`, entries.length, { line }) };
      }
      const seq = (row as { seq?: unknown } | null)?.seq;
      if (seq !== entries.length) {
        return {
          entries,
          damage: damaged(
            `${where} ${typeof seq === 'number' ? `is numbered ${seq}` : 'has no entry number ("seq")'} where entry ${entries.length} belongs`,
            entries.length,
            { line },
          ),
        };
      }
      const problem = entryProblem((row as { entry?: unknown }).entry);
      if (problem)
        return { entries, damage: damaged(`${where} is not a session entry (${problem})`, entries.length, { line }) };
      entries.push((row as { entry: SessionEntry }).entry);
      start = end + 1;
    }
    if (size < cp.logBytes) {
      return {
        entries,
        damage: damaged(
          `its log.ndjson ends after entry ${entries.length - 1} (${size} bytes) but the checkpoint covers entries 0–${cp.checkpointSeq} (${cp.logBytes} bytes): the end of the log is missing`,
          entries.length,
        ),
      };
    }
    if (entries.length - 1 !== cp.checkpointSeq) {
      return {
        entries,
        damage: damaged(
          `its log.ndjson holds entries 0–${entries.length - 1} where the checkpoint says 0–${cp.checkpointSeq}`,
          entries.length,
        ),
      };
    }
    return { entries, damage: null };
  }

  return {
    workspaceId,
    async create(init: CreateSession) {
      checkSessionTitle(init.title);
      const id = init.id ?? `s-${randomUUID()}`;
      const dir = dirOf(id);
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      if (await readCheckpoint(id))
        throw new HarnessError(
          'E_SESSION_EXISTS',
          `A session "${id}" already exists. Choose another name or resume it.`,
          { id },
        );
      const log = join(dir, 'log.ndjson');
      try {
        await (await fsp.open(log, 'wx', 0o600)).close();
      } catch (error) {
        if (!isErrno(error, 'EEXIST')) throw error;
        // A log without a checkpoint.json: never overwrite the conversation it holds.
        const { size } = await fsp.stat(log);
        if (size > 0) {
          throw new HarnessError(
            'E_SESSION_CORRUPT',
            `The folder ${dir} holds a log.ndjson (${size} bytes) but no checkpoint.json, so the session "${id}" cannot be opened or started there. Nothing was changed. Restore checkpoint.json from a backup, or move the folder away and use another --session-name.`,
            { id, file: log },
          );
        }
      }
      const now = Date.now();
      const cp: CheckpointFile = {
        version: SESSION_FORMAT_VERSION,
        id,
        workspace,
        workspaceId,
        title: init.title,
        createdAt: init.createdAt ?? now,
        updatedAt: now,
        checkpointSeq: -1,
        logBytes: 0,
      };
      if (init.forkedFrom) cp.forkedFrom = init.forkedFrom;
      await writeCheckpoint(cp);
      return info(cp);
    },
    async get(id) {
      const cp = await readCheckpoint(id);
      return cp ? info(cp) : null;
    },
    async list() {
      let names: string[];
      try {
        names = await fsp.readdir(root);
      } catch {
        return [];
      }
      const out: SessionInfo[] = [];
      for (const name of names) {
        if (!SESSION_NAME_PATTERN.test(name)) continue;
        try {
          const cp = await readCheckpoint(name);
          if (cp) out.push(info(cp));
        } catch {
          // Sessions of other workspaces or unreadable ones are not listed.
        }
      }
      return out.sort((a, b) => b.updatedAt - a.updatedAt);
    },
    async load(id) {
      const cp = await mustRead(id);
      const tail = await readFromReset(join(dirOf(id), 'log.ndjson'), cp);
      const loaded: LoadedSession = { info: info(cp), messages: replayEntries(tail ?? (await readLog(id, cp))) };
      return loaded;
    },
    async loadIntact(id) {
      const cp = await mustRead(id);
      const { entries, damage } = await scanLog(id, cp);
      // Never past the pointer: lines beyond it belong to a commit that did not finish.
      return {
        info: info(cp),
        entries: entries.slice(0, cp.checkpointSeq + 1),
        damage: damage ? toErrorData(damage) : null,
      };
    },
    async commit(id, entries, expectedSeq) {
      const dir = dirOf(id);
      // A session that disappears under a commit was removed by someone else: E_SESSION_GONE, from the lock on.
      return withLock(dir, id, async () => {
        const cp = await readCheckpoint(id);
        if (!cp) throw gone(id, dir, null);
        if (cp.checkpointSeq !== expectedSeq) {
          throw new HarnessError(
            'E_SESSION_CONFLICT',
            `The session "${id}" was changed by another run meanwhile (its checkpoint is at entry ${cp.checkpointSeq}, this run expected ${expectedSeq}), so this step was not saved. Run i again with the same --session-name to continue from the other run's checkpoint.`,
            { id },
          );
        }
        if (entries.length === 0) return info(cp);
        let seq = cp.checkpointSeq;
        let bytes: Buffer;
        let reset: { resetSeq: number; resetBytes: number } | null = null;
        try {
          // One buffer per line: a long history never has to fit in one string.
          let offset = cp.logBytes;
          const lines = entries.map((entry) => {
            const line = Buffer.from(`${JSON.stringify({ seq: ++seq, entry })}\n`, 'utf8');
            if (entry.kind === 'reset') reset = { resetSeq: seq, resetBytes: offset };
            offset += line.length;
            return line;
          });
          bytes = Buffer.concat(lines);
        } catch (error) {
          if (!(error instanceof RangeError)) throw error;
          throw new HarnessError(
            'E_SESSION_TOO_LARGE',
            `One entry of the session "${id}" is too large to save as text (${error.message}), so this step was not saved. Start a new session, or compact this one.`,
            { id },
            { cause: error },
          );
        }
        const log = join(dir, 'log.ndjson');
        const handle = await fsp.open(log, 'r+');
        try {
          // The committed bytes must still be there and end a line; else truncating would pad or cut the log.
          const { size } = await handle.stat();
          const last = Buffer.alloc(1);
          if (cp.logBytes > 0 && size >= cp.logBytes) await handle.read(last, 0, 1, cp.logBytes - 1);
          if (size < cp.logBytes || (cp.logBytes > 0 && last[0] !== 0x0a)) {
            throw new HarnessError(
              'E_SESSION_CORRUPT',
              `The log ${log} of session "${id}" no longer matches its checkpoint (${size} bytes, the checkpoint covers ${cp.logBytes}): it was changed outside i. Nothing was written. Restore it from a backup, or move the folder ${dir} away and use another --session-name.`,
              { id, file: log },
            );
          }
          // Lines past the pointer come from a commit that crashed before moving it: drop them.
          await handle.truncate(cp.logBytes);
          await handle.write(bytes, 0, bytes.length, cp.logBytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        options.failpoint?.('appended');
        const next: CheckpointFile = {
          ...cp,
          checkpointSeq: seq,
          logBytes: cp.logBytes + bytes.length,
          updatedAt: Date.now(),
          ...(reset ?? {}),
        };
        await writeCheckpoint(next);
        return info(next);
      });
    },
    async rename(id, title) {
      checkSessionTitle(title);
      const dir = dirOf(id);
      await mustRead(id);
      // Under the lock: a rename racing a commit must not put back the pointer it read before the commit.
      return withLock(dir, id, async () => {
        const cp = await readCheckpoint(id);
        if (!cp) throw gone(id, dir, null);
        const next = { ...cp, title, updatedAt: Date.now() };
        await writeCheckpoint(next);
        return info(next);
      });
    },
    async delete(id) {
      try {
        await mustRead(id);
      } catch (error) {
        // A damaged or newer session can still be deleted on purpose; another workspace's cannot.
        const code = (error as HarnessError).code;
        if (code !== 'E_SESSION_CORRUPT' && code !== 'E_SESSION_VERSION') throw error;
      }
      await fsp.rm(dirOf(id), { recursive: true, force: true });
    },
  };
}
