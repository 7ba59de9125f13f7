// JSON registry files shared by several Node processes (bridge, headless `i`, hplugin): read with a size cap,
// changed under an exclusive lock, written atomically (seed 000 §3: "注册表有锁、原子写入……读取上限2 MB").
// Node-only (exported from ./node.ts).
//
// Lock: `<file>.lock` created with O_CREAT|O_EXCL holding {pid, host, nonce, created_ms}. A waiter retries with
// jitter up to `lockTimeoutMs`, then fails with E_LOCK_TIMEOUT. A lock is stale when its process is gone (same
// host) or it is older than `staleLockMs`; a stale lock is removed only if it still holds the nonce that was
// judged stale. Two waiters judging the same lock stale at the same instant remain a narrow race: file system
// races are not an isolation guarantee (seed 000 §3), and the atomic rename still keeps the file whole.
//
// Atomic write: temp file in the same folder (O_EXCL, 0600), write, fsync, rename over the target, then fsync
// the folder where the platform allows it, so a crash leaves the old file or the new one.
import { constants as fsc } from 'node:fs';
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { HarnessError } from '../errors';

/** Registry files are read with this cap (2 MB, seed 000 §3). */
export const REGISTRY_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
export const DEFAULT_STALE_LOCK_MS = 30_000;

export interface JsonFileOptions {
  /** Largest file read or written (default 2 MB). */
  maxBytes?: number;
  /** Longest wait for the lock before E_LOCK_TIMEOUT (default 5 s). */
  lockTimeoutMs?: number;
  /** A lock older than this is stale even if its process seems alive (default 30 s). */
  staleLockMs?: number;
}

interface LockInfo {
  pid: number;
  host: string;
  nonce: string;
  created_ms: number;
}

function errnoOf(error: unknown): string {
  return typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code ?? '') : '';
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads and parses a JSON file; undefined when it does not exist. E_JSON_TOO_LARGE / E_JSON_CORRUPT otherwise. */
export async function readJsonFile(file: string, options: JsonFileOptions = {}): Promise<unknown> {
  const maxBytes = options.maxBytes ?? REGISTRY_MAX_BYTES;
  let handle;
  try {
    handle = await open(file, fsc.O_RDONLY);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw new HarnessError(
      'E_JSON_READ',
      `Cannot read ${file} (${errnoOf(error) || String(error)}). Check its permissions.`,
      { file },
      { cause: error },
    );
  }
  let text: string;
  try {
    const size = (await handle.stat()).size;
    if (size > maxBytes) throw tooLarge(file, size, maxBytes);
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null);
      if (bytesRead === 0 || (total += bytesRead) === buffer.length) break;
    }
    if (total > maxBytes) throw tooLarge(file, total, maxBytes);
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, total));
  } catch (error) {
    if (HarnessError.isInstance(error)) throw error;
    throw corrupt(file, 'it is not UTF-8 text', error);
  } finally {
    await handle.close();
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw corrupt(file, 'it is not valid JSON', error);
  }
}

function tooLarge(file: string, size: number, maxBytes: number): HarnessError {
  return new HarnessError(
    'E_JSON_TOO_LARGE',
    `${file} is ${size} bytes, over the ${maxBytes}-byte limit for registry files. Move it aside; it will be recreated.`,
    { file, size, maxBytes },
  );
}

export function corrupt(file: string, why: string, cause?: unknown): HarnessError {
  return new HarnessError(
    'E_JSON_CORRUPT',
    `${file} cannot be used: ${why}. Fix it by hand or move it aside (it is never overwritten while unreadable).`,
    { file },
    cause === undefined ? undefined : { cause },
  );
}

/** Writes `value` as JSON atomically: readers see the old file or the new one, never a partial file. */
export async function writeJsonFileAtomic(file: string, value: unknown, options: JsonFileOptions = {}): Promise<void> {
  const maxBytes = options.maxBytes ?? REGISTRY_MAX_BYTES;
  const data = Buffer.from(`${JSON.stringify(value, null, 2)}\n`, 'utf8');
  // Never write what the next reader would refuse.
  if (data.length > maxBytes) throw tooLarge(file, data.length, maxBytes);
  const dir = dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw new HarnessError(
      'E_JSON_WRITE',
      `Cannot write ${file} (${errnoOf(error) || String(error)}). Check free space and permissions.`,
      { file },
      { cause: error },
    );
  }
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
  // Makes the rename durable on POSIX; Windows cannot open a folder for fsync, which is fine to skip.
  try {
    const handle = await open(dir, fsc.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    /* best effort */
  }
}

async function readLock(lockFile: string): Promise<{ info: Partial<LockInfo>; mtimeMs: number } | null> {
  try {
    const [text, info] = await Promise.all([readFile(lockFile, 'utf8'), stat(lockFile)]);
    let parsed: Partial<LockInfo> = {};
    try {
      parsed = JSON.parse(text) as Partial<LockInfo>;
    } catch {
      /* a lock being written right now, or garbage: judged by age only */
    }
    return { info: parsed, mtimeMs: info.mtimeMs };
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return null;
    throw error;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM'; // exists, owned by someone else
  }
}

function isStale(lock: { info: Partial<LockInfo>; mtimeMs: number }, staleLockMs: number): boolean {
  if (Date.now() - lock.mtimeMs > staleLockMs) return true;
  const { pid, host } = lock.info;
  return typeof pid === 'number' && host === hostname() && pid !== process.pid && !processAlive(pid);
}

/** Runs `fn` while holding `<file>.lock`. The lock is released even when `fn` throws. */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, options: JsonFileOptions = {}): Promise<T> {
  const lockFile = `${file}.lock`;
  const timeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleLockMs = options.staleLockMs ?? DEFAULT_STALE_LOCK_MS;
  const mine: LockInfo = {
    pid: process.pid,
    host: hostname(),
    nonce: randomBytes(12).toString('hex'),
    created_ms: Date.now(),
  };
  const deadline = Date.now() + timeoutMs;
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  for (let wait = 10; ; wait = Math.min(wait * 2, 200)) {
    try {
      const handle = await open(lockFile, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o600);
      try {
        await handle.writeFile(JSON.stringify(mine));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') {
        throw new HarnessError(
          'E_LOCK_FAILED',
          `Cannot create ${lockFile} (${errnoOf(error) || String(error)}). Check the folder's permissions.`,
          { file: lockFile },
          { cause: error },
        );
      }
    }
    const held = await readLock(lockFile);
    if (held && isStale(held, staleLockMs)) {
      // Remove it only if it is still the very lock judged stale.
      const again = await readLock(lockFile);
      if (again && again.info.nonce === held.info.nonce && again.mtimeMs === held.mtimeMs) {
        await unlink(lockFile).catch(() => undefined);
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new HarnessError(
        'E_LOCK_TIMEOUT',
        `${file} is locked by another process (${held?.info.pid !== undefined ? `pid ${String(held.info.pid)}` : 'unknown'}) for longer than ${timeoutMs} ms. Retry; if no other i process is running, delete ${lockFile}.`,
        { file: lockFile, ...(held?.info.pid !== undefined ? { pid: held.info.pid } : {}) },
      );
    }
    await sleep(wait / 2 + Math.random() * wait);
  }
  try {
    return await fn();
  } finally {
    const current = await readLock(lockFile).catch(() => null);
    if (current?.info.nonce === mine.nonce) await unlink(lockFile).catch(() => undefined);
  }
}

/**
 * Reads the file, lets `update` compute the next value, and writes it atomically, all under the lock.
 * `update` returns `{ result }` without `value` to leave the file untouched (nothing is rewritten).
 */
export async function updateJsonFile<T>(
  file: string,
  update: (current: unknown) => { value: unknown; result: T } | { result: T },
  options: JsonFileOptions = {},
): Promise<T> {
  return withFileLock(
    file,
    async () => {
      const current = await readJsonFile(file, options);
      const next = update(current);
      if ('value' in next) await writeJsonFileAtomic(file, next.value, options);
      return next.result;
    },
    options,
  );
}
