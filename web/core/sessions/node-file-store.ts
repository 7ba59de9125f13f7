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
import { HarnessError } from '../errors';
import { replayEntries } from './replay';
import { SESSION_FORMAT_VERSION, type CreateSession, type LoadedSession, type SessionEntry, type SessionInfo, type SessionStore } from './types';

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

/**
 * Runs `fn` holding DIR/lock (created exclusively, holding our pid). A lock whose process is gone is stale and
 * taken over; a live one means another `i` is writing this session: E_SESSION_BUSY.
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
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw busy(id, error);
      const pid = Number(await fsp.readFile(file, 'utf8').catch(() => ''));
      // Our own pid in the lock is a leftover of a failed commit in this process (saves of one session are serial).
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) throw busy(id, error);
      await fsp.rm(file, { force: true });
    }
  }
  try {
    return await fn();
  } finally {
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
  new HarnessError('E_SESSION_BUSY', `Another i process is saving the session "${id}" right now. Wait for it to finish, or use another --session-name.`, { id }, { cause });

export function createFileSessionStore(options: FileSessionStoreOptions): SessionStore {
  const { root, workspace } = options;
  const workspaceId = options.workspaceId ?? workspace;
  const dirOf = (id: string) => {
    checkSessionName(id);
    return join(root, id);
  };

  async function readCheckpoint(id: string): Promise<CheckpointFile | null> {
    let text: string;
    try {
      text = await fsp.readFile(join(dirOf(id), 'checkpoint.json'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    let cp: CheckpointFile;
    try {
      cp = JSON.parse(text) as CheckpointFile;
    } catch {
      throw new HarnessError('E_SESSION_CORRUPT', `The session "${id}" has an unreadable checkpoint.json. Move the folder ${dirOf(id)} away and start a new session.`, { id });
    }
    if (cp.version !== SESSION_FORMAT_VERSION) {
      throw new HarnessError('E_SESSION_VERSION', `The session "${id}" was written in format ${String(cp.version)}, which this version of i does not read. Update i or start a new session.`, { id });
    }
    if (cp.workspace !== workspace) {
      throw new HarnessError(
        'E_SESSION_WORKSPACE_MISMATCH',
        `The session "${id}" belongs to the workspace ${cp.workspace}, not ${workspace}. Use another session name, or run i in that folder.`,
        { id, expected: workspace, found: cp.workspace },
      );
    }
    return cp;
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
    const out: SessionInfo = { id: cp.id, workspaceId: cp.workspaceId, title: cp.title, createdAt: cp.createdAt, updatedAt: cp.updatedAt, checkpointSeq: cp.checkpointSeq };
    if (cp.forkedFrom) out.forkedFrom = cp.forkedFrom;
    return out;
  };

  async function mustRead(id: string): Promise<CheckpointFile> {
    const cp = await readCheckpoint(id);
    if (!cp) throw new HarnessError('E_SESSION_NOT_FOUND', `There is no session "${id}" in this workspace.`, { id });
    return cp;
  }

  return {
    workspaceId,
    async create(init: CreateSession) {
      const id = init.id ?? `s-${randomUUID()}`;
      const dir = dirOf(id);
      await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
      if (await readCheckpoint(id)) throw new HarnessError('E_SESSION_EXISTS', `A session "${id}" already exists. Choose another name or resume it.`, { id });
      const now = Date.now();
      const cp: CheckpointFile = { version: SESSION_FORMAT_VERSION, id, workspace, workspaceId, title: init.title, createdAt: now, updatedAt: now, checkpointSeq: -1, logBytes: 0 };
      if (init.forkedFrom) cp.forkedFrom = init.forkedFrom;
      await fsp.writeFile(join(dir, 'log.ndjson'), '', { mode: 0o600 });
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
      const handle = await fsp.open(join(dirOf(id), 'log.ndjson'), 'r');
      let text: string;
      try {
        const buf = Buffer.alloc(cp.logBytes);
        const { bytesRead } = await handle.read(buf, 0, cp.logBytes, 0);
        if (bytesRead !== cp.logBytes) throw new HarnessError('E_SESSION_CORRUPT', `The log of session "${id}" is shorter than its checkpoint says. Start a new session; the folder is kept for inspection.`, { id });
        text = buf.toString('utf8');
      } finally {
        await handle.close();
      }
      const entries: SessionEntry[] = [];
      let seq = -1;
      for (const line of text.split('\n')) {
        if (line === '') continue;
        let row: { seq: number; entry: SessionEntry };
        try {
          row = JSON.parse(line) as { seq: number; entry: SessionEntry };
        } catch {
          throw new HarnessError('E_SESSION_CORRUPT', `The log of session "${id}" has an unreadable line after entry ${seq}. Start a new session; the folder is kept for inspection.`, { id });
        }
        if (row.seq !== seq + 1) throw new HarnessError('E_SESSION_CORRUPT', `The log of session "${id}" skips from entry ${seq} to ${row.seq}. Start a new session.`, { id });
        seq = row.seq;
        entries.push(row.entry);
      }
      if (seq !== cp.checkpointSeq) throw new HarnessError('E_SESSION_CORRUPT', `The log of session "${id}" ends at entry ${seq}, its checkpoint at ${cp.checkpointSeq}. Start a new session.`, { id });
      const loaded: LoadedSession = { info: info(cp), messages: replayEntries(entries) };
      return loaded;
    },
    async commit(id, entries, expectedSeq) {
      return withLock(dirOf(id), id, async () => {
        const cp = await mustRead(id);
        if (cp.checkpointSeq !== expectedSeq) {
          throw new HarnessError('E_SESSION_CONFLICT', `The session "${id}" was changed by another run (checkpoint ${cp.checkpointSeq}, expected ${expectedSeq}). Reload it and try again.`, { id });
        }
        if (entries.length === 0) return info(cp);
        let seq = cp.checkpointSeq;
        const text = entries.map((entry) => `${JSON.stringify({ seq: ++seq, entry })}\n`).join('');
        const bytes = Buffer.from(text, 'utf8');
        const handle = await fsp.open(join(dirOf(id), 'log.ndjson'), 'r+');
        try {
          // Lines past the pointer come from a commit that crashed before moving it: drop them.
          await handle.truncate(cp.logBytes);
          await handle.write(bytes, 0, bytes.length, cp.logBytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        options.failpoint?.('appended');
        const next: CheckpointFile = { ...cp, checkpointSeq: seq, logBytes: cp.logBytes + bytes.length, updatedAt: Date.now() };
        await writeCheckpoint(next);
        return info(next);
      });
    },
    async rename(id, title) {
      const cp = await mustRead(id);
      const next = { ...cp, title, updatedAt: Date.now() };
      await writeCheckpoint(next);
      return info(next);
    },
    async delete(id) {
      await mustRead(id);
      await fsp.rm(dirOf(id), { recursive: true, force: true });
    },
  };
}
