// Seed 000 §3: without an explicit id, the workspace's canonical path digest is looked up in
// <data_dir>/workspaces.json and a UUID assigned. Lock file, atomic write (temp + rename), at most 10000 entries,
// 2 MB read cap; an existing binding is never rewritten. Versioned so a later schema can migrate it.
// Headless i keeps the same file (web/core/headless/workspace-id.ts: same key, same format, a lock on the same
// `workspaces.json.lock`); the bridge imports nothing from web/, so a change of format goes to both files, and
// web/core/headless/registry-shared-with-bridge.test.ts runs the two real programs on one folder to hold them equal.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BridgeError } from './errors';
import { REGISTRY_MAX_ENTRIES, REGISTRY_MAX_READ_BYTES } from './limits';

interface RegistryFile {
  version: 1;
  workspaces: Record<string, string>;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** As headless i's lock (plugin-host/fs/json-file-store.ts): stale when its process is gone or it is this old. */
const STALE_LOCK_MS = 30_000;

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

interface LockInfo {
  pid?: unknown;
  host?: unknown;
  nonce?: unknown;
}

/** The lock's text and age, or null when it is gone. */
function readLock(lockPath: string): { text: string; info: LockInfo; mtimeMs: number } | null {
  try {
    const text = readFileSync(lockPath, 'utf8');
    let info: LockInfo = {};
    try {
      info = JSON.parse(text) as LockInfo;
    } catch {
      // a lock being written right now, or an older bridge's empty one: judged by age only
    }
    return { text, info, mtimeMs: statSync(lockPath).mtimeMs };
  } catch {
    return null;
  }
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function isStale(lock: { info: LockInfo; mtimeMs: number }): boolean {
  if (Date.now() - lock.mtimeMs > STALE_LOCK_MS) return true;
  const { pid, host } = lock.info;
  return typeof pid === 'number' && host === hostname() && processGone(pid);
}

// The lock holds {pid, host, nonce, created_ms} like headless i's, so each judges the other's lock the same way: a
// lock is removed as stale only while it still holds the very text judged stale (a live holder's fresh lock is
// never taken away), and released only by the holder whose nonce it holds.
function withLock<T>(lockPath: string, fn: () => T): T {
  const deadline = Date.now() + 3000;
  const mine = JSON.stringify({
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(12).toString('hex'),
    created_ms: Date.now(),
  });
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      try {
        writeFileSync(fd, mine);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const held = readLock(lockPath);
      if (held && isStale(held) && readLock(lockPath)?.text === held.text) {
        try {
          unlinkSync(lockPath); // a crashed writer
        } catch {
          // the holder just released it
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new BridgeError(
          'E_REGISTRY_LOCKED',
          `The workspace registry is locked (${lockPath}). If no i process is running, delete that file.`,
        );
      }
      sleep(20);
    }
  }
  try {
    return fn();
  } finally {
    if (readLock(lockPath)?.text === mine) {
      try {
        unlinkSync(lockPath);
      } catch {
        // already gone
      }
    }
  }
}

function readRegistry(file: string): RegistryFile {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return { version: 1, workspaces: {} };
  }
  if (size > REGISTRY_MAX_READ_BYTES) {
    throw new BridgeError(
      'E_REGISTRY_INVALID',
      `${file} is larger than ${REGISTRY_MAX_READ_BYTES} bytes. Remove stale entries from it.`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    throw new BridgeError('E_REGISTRY_INVALID', `${file} is not valid JSON. Repair or remove it.`);
  }
  const reg = raw as Partial<RegistryFile>;
  if (reg?.version !== 1 || typeof reg.workspaces !== 'object' || reg.workspaces === null) {
    throw new BridgeError('E_REGISTRY_INVALID', `${file} has an unknown format. Repair or remove it.`);
  }
  for (const [digest, id] of Object.entries(reg.workspaces)) {
    if (!/^[0-9a-f]{64}$/.test(digest) || typeof id !== 'string' || !UUID.test(id)) {
      throw new BridgeError('E_REGISTRY_INVALID', `${file} holds an invalid entry. Repair or remove it.`);
    }
  }
  return reg as RegistryFile;
}

export const workspaceDigest = (canonicalPath: string) =>
  createHash('sha256').update(canonicalPath, 'utf8').digest('hex');

/** The UUID bound to a canonical workspace path, assigning (and persisting) one on first use. */
export function workspaceIdFor(dataDir: string, canonicalPath: string): string {
  const file = join(dataDir, 'workspaces.json');
  const digest = workspaceDigest(canonicalPath);
  const known = readRegistry(file).workspaces[digest];
  if (known) return known;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return withLock(`${file}.lock`, () => {
    const reg = readRegistry(file); // re-read under the lock: another process may have bound it meanwhile
    const existing = reg.workspaces[digest];
    if (existing) return existing;
    if (Object.keys(reg.workspaces).length >= REGISTRY_MAX_ENTRIES) {
      throw new BridgeError(
        'E_REGISTRY_FULL',
        `${file} already has ${REGISTRY_MAX_ENTRIES} workspaces. Remove stale entries from it.`,
      );
    }
    const id = randomUUID();
    reg.workspaces[digest] = id;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(reg)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
    return id;
  });
}
