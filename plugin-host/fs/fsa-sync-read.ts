// Reading a private (OPFS) workspace's files through synchronous access handles, where that is possible: only in a
// dedicated Worker (the agent Worker) and only for files of the origin private file system. A handle is opened,
// read at once and closed, so it is held for the time of one read; `mode: 'read-only'` (Chromium 121+) takes a
// shared lock, so readers never block one another. What it does not share with is a writer: a writable stream or a
// read-write handle on the same file (the page, another tab, a plugin's write) makes the open fail with
// NoModificationAllowedError, and the read falls back to getFile(); the other way round, a writer that meets our
// open handle retries briefly (`fsa-workspace-fs.ts`, writeBytes). getFile(), which the page's Files panel uses,
// takes no lock and is never in the way. Only for large files: measured in a Worker under load, 2 MiB files read
// 2–3× faster this way with 32 reads in flight, 16–256 KiB went either way between runs, and small files were
// slower (3 KB: 882 vs 693 ms for 1,000 files; opening and closing the handle are browser calls too), so
// getFile() first tells the size.
import { errorName, fsError } from './fs-common';

/** Files from this size on are read through a synchronous access handle (smaller ones through getFile()). */
export const SYNC_MIN_BYTES = 1024 * 1024;

interface SyncAccessHandle {
  getSize(): number;
  read(buffer: Uint8Array, options?: { at?: number }): number;
  close(): void;
}

type SyncCapableFileHandle = FileSystemFileHandle & {
  createSyncAccessHandle(options?: {
    mode?: 'read-only' | 'readwrite' | 'readwrite-unsafe';
  }): Promise<SyncAccessHandle>;
};

/** Whether this context can open synchronous access handles at all: a dedicated Worker of a browser that has them. */
export function syncHandlesAvailable(): boolean {
  const scope = (globalThis as { DedicatedWorkerGlobalScope?: abstract new () => unknown }).DedicatedWorkerGlobalScope;
  return (
    typeof scope === 'function' &&
    globalThis instanceof scope &&
    typeof FileSystemFileHandle !== 'undefined' &&
    'createSyncAccessHandle' in FileSystemFileHandle.prototype
  );
}

/** Whether `root` lies in the origin private file system (only its files have synchronous access handles). */
export async function inPrivateFileSystem(root: FileSystemDirectoryHandle): Promise<boolean> {
  try {
    return (await (await navigator.storage.getDirectory()).resolve(root)) !== null;
  } catch {
    return false;
  }
}

/**
 * The bytes of the file, refused with E_FS_TOO_LARGE over `maxBytes`; `'busy'` when a writer holds the file now,
 * `'unsupported'` when this file has no synchronous handles (the caller stops trying): read it the usual way then.
 * Other failures (the file is gone) reject with the DOMException, for the caller to map.
 */
export async function readThroughSyncHandle(
  handle: FileSystemFileHandle,
  maxBytes: number,
  path: string,
): Promise<Uint8Array | 'busy' | 'unsupported'> {
  let access: SyncAccessHandle;
  try {
    access = await (handle as SyncCapableFileHandle).createSyncAccessHandle({ mode: 'read-only' });
  } catch (error) {
    const name = errorName(error);
    if (name === 'NoModificationAllowedError') return 'busy';
    if (name === 'InvalidStateError' || name === 'NotSupportedError' || name === 'TypeError') return 'unsupported';
    throw error;
  }
  try {
    const size = access.getSize();
    if (size > maxBytes) throw fsError('E_FS_TOO_LARGE', path, { size, maxBytes });
    const buffer = new Uint8Array(size);
    let total = 0;
    while (total < size) {
      const n = access.read(buffer.subarray(total), { at: total });
      if (n === 0) break;
      total += n;
    }
    return total === size ? buffer : buffer.slice(0, total);
  } finally {
    access.close();
  }
}
