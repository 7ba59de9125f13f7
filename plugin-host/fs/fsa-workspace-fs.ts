// WorkspaceFs over a File System Access `FileSystemDirectoryHandle`: a real folder from showDirectoryPicker or an
// OPFS directory (navigator.storage.getDirectory() or a sub-directory of it). Browser-safe: no Node imports.
//
// Symbolic links: the browser, not this code, decides what a name refers to. The File System standard says
// nothing about symlinks (WICG/file-system-access#113). Chromium's local backend hides them
// (storage/browser/file_system/local_file_util.cc: IsHiddenItem is base::IsLink), and that is measured in
// fsa-hides-symlinks.chromium.test.ts (Chromium 156, Linux): a link is never listed by entries(), and
// getFileHandle/getDirectoryHandle on its name fail with NotFoundError, whether it points inside, outside or
// nowhere. OPFS has no symlinks at all. So through this backend a path reaches only entries the browser exposes
// under the granted handle; E_PATH_ESCAPE comes only from the shared path policy. (Writing to a link's name was
// not measured: a read-write grant cannot be given headlessly.)
//
// Atomic writes: createWritable() writes to a swap file beside the target and the browser moves it into place
// on close(); abort() discards it, so readers see the old content or the new one, never a partial file.
import type { DirEntry, FileStat, WorkspaceAccess, WorkspaceFs, WriteOptions } from './workspace-fs';
import { HarnessError } from '../errors';
import {
  compareNames,
  joinWorkspacePath,
  nfcCollisions,
  normalizeWorkspacePath,
  pathError,
  sameName,
  type WorkspacePath,
} from './path-policy';
import {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_LIST_ENTRIES,
  assertLimit,
  errorName,
  fsError,
  withTextMethods,
  writeAsideThenCommit,
} from './fs-common';
import { SYNC_MIN_BYTES, inPrivateFileSystem, readThroughSyncHandle, syncHandlesAvailable } from './fsa-sync-read';

export interface FsaWorkspaceFsOptions {
  access: WorkspaceAccess;
  /** Shown to people; defaults to the handle's name. */
  rootName?: string;
  /** Largest file read or written, in bytes (default 8 MiB). */
  maxBytes?: number;
  /** Most entries one list returns (default 1000). */
  maxEntries?: number;
  /**
   * Read files through short-lived synchronous access handles (fsa-sync-read.ts). Default: when this runs in a
   * dedicated Worker and the root is in the origin private file system; `false` turns it off (benchmarks).
   */
  syncReads?: boolean;
}

// TypeScript's DOM lib does not type the async iteration of directory handles without DOM.AsyncIterable.
interface IterableDirectoryHandle extends FileSystemDirectoryHandle {
  entries(): AsyncIterableIterator<[string, FileSystemHandle]>;
  keys(): AsyncIterableIterator<string>;
}

type Expect = 'file' | 'directory';

const READ_ATTEMPTS = 4;
/** Tries of createWritable while a reader's synchronous handle holds the file (held for one read: ~1 ms). */
const WRITE_LOCK_ATTEMPTS = 6;
/** How long a folder handle from a listing is used, and at most how many are kept. */
const KNOWN_MS = 10_000;
const KNOWN_MAX = 20_000;
const staleSnapshot = (error: unknown): boolean => ['NotFoundError', 'NotReadableError'].includes(errorName(error));

/** Maps a DOMException from the File System Access API to a stable E_* refusal. */
export function fromDomError(error: unknown, path: string, expect: Expect): HarnessError {
  if (HarnessError.isInstance(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  switch (errorName(error)) {
    case 'NotFoundError':
      return fsError('E_FS_NOT_FOUND', path, {}, error);
    case 'TypeMismatchError':
      return fsError(expect === 'file' ? 'E_FS_NOT_FILE' : 'E_FS_NOT_DIRECTORY', path, {}, error);
    case 'NotAllowedError':
    case 'SecurityError':
      return fsError('E_FS_PERMISSION', path, { reason }, error);
    case 'TypeError':
      // Chrome: "Name is not allowed." for names it refuses beyond the shared policy (dangerous extensions).
      return pathError('E_PATH_INVALID', path, 'the browser refuses this name');
    case 'InvalidModificationError':
      return fsError('E_FS_NOT_EMPTY', path, {}, error);
    case 'NoModificationAllowedError':
    case 'InvalidStateError':
    case 'NotReadableError':
      return fsError('E_FS_BUSY', path, { reason }, error);
    case 'QuotaExceededError':
      return fsError('E_FS_QUOTA', path, {}, error);
    default:
      return fsError('E_FS_IO', path, { reason }, error);
  }
}

export function createFsaWorkspaceFs(root: FileSystemDirectoryHandle, options: FsaWorkspaceFsOptions): WorkspaceFs {
  const access = options.access;
  const defaultMaxBytes = assertLimit(options.maxBytes, DEFAULT_MAX_FILE_BYTES, 'maxBytes');
  const defaultMaxEntries = assertLimit(options.maxEntries, DEFAULT_MAX_LIST_ENTRIES, 'maxEntries');

  // Decided at the first read: a picked folder (not OPFS) never has synchronous handles.
  let syncReads: Promise<boolean> | boolean =
    options.syncReads === false || !syncHandlesAvailable() ? false : inPrivateFileSystem(root);

  /**
   * Files this fs is writing now (normalised paths). A read of one of them (a write's beforeCommit reads what the file
   * holds) goes through getFile(): a synchronous handle would meet the write's lock, or make its createWritable wait.
   */
  const writing = new Map<string, number>();

  /** The file's bytes, through a synchronous access handle when it is large enough for that to pay. */
  async function readFile(
    handle: FileSystemFileHandle,
    file: File,
    maxBytes: number,
    path: string,
  ): Promise<Uint8Array> {
    if (file.size >= SYNC_MIN_BYTES && !writing.has(path)) {
      const bytes = await readSync(handle, maxBytes, path);
      if (bytes) return bytes;
    }
    return new Uint8Array(await file.arrayBuffer());
  }

  /** A file's bytes through a synchronous access handle, or null to read it through getFile(). */
  async function readSync(handle: FileSystemFileHandle, maxBytes: number, path: string): Promise<Uint8Array | null> {
    if (syncReads === false || !(await syncReads)) return null;
    const bytes = await readThroughSyncHandle(handle, maxBytes, path);
    if (bytes === 'unsupported') syncReads = false;
    return typeof bytes === 'string' ? null : bytes;
  }

  function requireWrite(path: string): void {
    if (access !== 'read-write') throw fsError('E_FS_READ_ONLY', path);
  }

  /** Refuses to create `name` when an entry with the same NFC name but other code points exists. */
  async function assertNoTwin(dir: FileSystemDirectoryHandle, name: string, path: string): Promise<void> {
    for await (const existing of (dir as IterableDirectoryHandle).keys()) {
      if (existing !== name && sameName(existing, name)) throw fsError('E_FS_NAME_CONFLICT', path, { existing });
    }
  }

  /** Walks exact names from the root. With `create`, missing folders are made (after the NFC twin check). */
  async function dirAt(segments: readonly string[], create: boolean): Promise<FileSystemDirectoryHandle> {
    let dir = root;
    for (let i = 0; i < segments.length; i += 1) {
      const name = segments[i] as string;
      const here = segments.slice(0, i + 1).join('/');
      try {
        dir = await dir.getDirectoryHandle(name);
      } catch (error) {
        if (!create || errorName(error) !== 'NotFoundError') throw fromDomError(error, here, 'directory');
        await assertNoTwin(dir, name, here);
        try {
          dir = await dir.getDirectoryHandle(name, { create: true });
        } catch (inner) {
          throw fromDomError(inner, here, 'directory');
        }
      }
    }
    return dir;
  }

  /**
   * Folder handles met by `list`, by path, so reading a file right after its folder was listed (search, glob, the
   * file tree) asks the browser for that one name instead of walking the path from the root handle by handle (each
   * step is a call into the browser process). Folders, not files: measured in Chromium over OPFS, a cached FILE
   * handle whose path became a folder still reads (an empty file), while getFileHandle() on a folder handle checks
   * the name every time. Any failure through a cached folder drops it and the path is looked up afresh; removals
   * drop what they touch. A handle is used for KNOWN_MS only (a listing is followed by its reads at once), so a
   * folder replaced later (say by a symlink, which a fresh lookup hides) is looked up again. Bounded: cleared when
   * it grows past KNOWN_MAX.
   */
  const known = new Map<string, { handle: FileSystemDirectoryHandle; at: number }>();
  const forget = (path: string) => {
    known.delete(path);
    for (const key of known.keys()) if (key.startsWith(`${path}/`)) known.delete(key);
  };

  async function fileAt(p: WorkspacePath): Promise<FileSystemFileHandle> {
    const parent = await dirAt(p.segments.slice(0, -1), false);
    try {
      return await parent.getFileHandle(p.segments[p.segments.length - 1] as string);
    } catch (error) {
      throw fromDomError(error, p.path, 'file');
    }
  }

  async function readBytes(path: string, opts?: { maxBytes?: number }): Promise<Uint8Array> {
    const p = normalizeWorkspacePath(path);
    const maxBytes = assertLimit(opts?.maxBytes, defaultMaxBytes, 'maxBytes');
    const folder = p.segments.slice(0, -1).join('/');
    const cached = known.get(folder);
    if (cached && Date.now() - cached.at < KNOWN_MS) {
      try {
        const handle = await cached.handle.getFileHandle(p.segments[p.segments.length - 1] as string);
        const file = await handle.getFile();
        if (file.size <= maxBytes) return await readFile(handle, file, maxBytes, p.path);
      } catch {
        // Gone, not a file, a folder that moved, or a snapshot race: the path is looked up afresh below, which
        // gives the right refusal (or reads what replaced the file).
        known.delete(folder);
      }
    } else if (cached) known.delete(folder);
    for (let attempt = 1; ; attempt += 1) {
      const handle = await fileAt(p);
      try {
        const file = await handle.getFile();
        if (file.size > maxBytes) throw fsError('E_FS_TOO_LARGE', p.path, { size: file.size, maxBytes });
        return await readFile(handle, file, maxBytes, p.path);
      } catch (error) {
        // Measured in Chromium over OPFS: a File snapshot taken just before another writer's close() commits
        // fails with NotFoundError (or NotReadableError). The file was replaced whole, so read it again.
        if (attempt < READ_ATTEMPTS && staleSnapshot(error)) continue;
        throw fromDomError(error, p.path, 'file');
      }
    }
  }

  /**
   * Removes the empty file a failed write created. Chrome may still hold the file's write lock for a moment after
   * abort() (its swap file is dropped asynchronously), and removeEntry then fails: try again briefly.
   */
  async function removeCreated(parent: FileSystemDirectoryHandle, name: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        // Only the empty file this call created: another write that finished meanwhile has content, and stays.
        if (attempt > 0 && (await (await parent.getFileHandle(name)).getFile()).size > 0) return;
        await parent.removeEntry(name);
        return;
      } catch (error) {
        if (errorName(error) === 'NotFoundError' || attempt === 5) return;
        await new Promise((r) => setTimeout(r, 5 * 2 ** attempt));
      }
    }
  }

  async function writeBytes(path: string, data: Uint8Array, opts?: WriteOptions): Promise<void> {
    const p = normalizeWorkspacePath(path);
    requireWrite(p.path);
    if (data.byteLength > defaultMaxBytes) {
      throw fsError('E_FS_TOO_LARGE', p.path, { size: data.byteLength, maxBytes: defaultMaxBytes });
    }
    const folders = p.segments.slice(0, -1);
    let parent: FileSystemDirectoryHandle;
    let hooked = opts;
    try {
      parent = await dirAt(folders, false);
    } catch (error) {
      if (!HarnessError.isInstance(error) || error.code !== 'E_FS_NOT_FOUND') throw error;
      // A folder on the way is missing, so the file is too: beforeCommit runs before any folder is made (a refusal
      // leaves the workspace as it was).
      await opts?.beforeCommit?.();
      hooked = undefined;
      parent = await dirAt(folders, true);
    }
    const name = p.segments[p.segments.length - 1] as string;
    writing.set(p.path, (writing.get(p.path) ?? 0) + 1);
    try {
      await writeFileAt(parent, name, p.path, data, hooked);
    } finally {
      const n = writing.get(p.path)! - 1;
      if (n === 0) writing.delete(p.path);
      else writing.set(p.path, n);
    }
  }

  async function writeFileAt(
    parent: FileSystemDirectoryHandle,
    name: string,
    path: string,
    data: Uint8Array,
    opts?: WriteOptions,
  ): Promise<void> {
    let handle: FileSystemFileHandle;
    let created = false;
    // beforeCommit runs while the file keeps its contents: for a file that exists, from here through createWritable
    // and the write to the writable's swap file until close() replaces it. Every way out waits for it to settle.
    let hook: Promise<void> | undefined;
    try {
      handle = await parent.getFileHandle(name);
      // Started as a promise of its own: a hook that throws at once is its refusal, never a lookup error.
      const before = opts?.beforeCommit;
      hook = before && Promise.resolve().then(before);
      hook?.catch(() => undefined);
    } catch (error) {
      if (errorName(error) !== 'NotFoundError') throw fromDomError(error, path, 'file');
      await assertNoTwin(parent, name, path);
      // Creating the handle makes an empty file at once: beforeCommit runs first, while the file is absent.
      await opts?.beforeCommit?.();
      try {
        handle = await parent.getFileHandle(name, { create: true });
        created = true;
      } catch (inner) {
        throw fromDomError(inner, path, 'file');
      }
    }
    let writable: FileSystemWritableFileStream;
    for (let attempt = 1; ; attempt++) {
      try {
        writable = await handle.createWritable({ keepExistingData: false });
        break;
      } catch (error) {
        // A reader's synchronous access handle (this or another context's) holds the file for one read.
        if (attempt < WRITE_LOCK_ATTEMPTS && errorName(error) === 'NoModificationAllowedError') {
          await new Promise((r) => setTimeout(r, 2 ** attempt));
          continue;
        }
        await hook?.catch(() => undefined);
        if (created) await removeCreated(parent, name);
        throw fromDomError(error, path, 'file');
      }
    }
    const failed = async () => {
      // abort() drops the swap file: the old content stays. A file this call created is removed again.
      await writable.abort().catch(() => undefined);
      if (created) await removeCreated(parent, name);
    };
    const mapped = async (step: () => Promise<void>) => {
      try {
        await step();
      } catch (error) {
        throw fromDomError(error, path, 'file');
      }
    };
    // beforeCommit's refusal is the write's error as it is; the writable's own failures get E_FS_* codes.
    await writeAsideThenCommit(
      hook && (() => hook!),
      () => mapped(() => writable.write(data as Uint8Array<ArrayBuffer>)),
      failed,
      () =>
        mapped(async () => {
          try {
            await writable.close();
          } catch (error) {
            await failed();
            throw error;
          }
        }),
    );
  }

  async function list(
    path: string,
    opts?: { maxEntries?: number; truncate?: boolean; sizes?: boolean },
  ): Promise<DirEntry[]> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    const maxEntries = assertLimit(opts?.maxEntries, defaultMaxEntries, 'maxEntries');
    const dir = await dirAt(p.segments, false);
    const found: [string, FileSystemHandle][] = [];
    try {
      for await (const entry of (dir as IterableDirectoryHandle).entries()) {
        if (found.length >= maxEntries) {
          if (opts?.truncate) break;
          throw fsError('E_FS_TOO_MANY_ENTRIES', p.path, { maxEntries });
        }
        found.push(entry);
      }
    } catch (error) {
      throw fromDomError(error, p.path, 'directory');
    }
    const twins = nfcCollisions(found.map(([name]) => name));
    const entries = await Promise.all(
      found.map(async ([name, handle]): Promise<DirEntry | null> => {
        const entryPath = joinWorkspacePath(p.path, name);
        const directory = handle.kind === 'directory';
        let size = 0;
        if (directory) {
          if (known.size >= KNOWN_MAX) known.clear();
          known.set(entryPath, { handle: handle as FileSystemDirectoryHandle, at: Date.now() });
        }
        if (!directory && opts?.sizes !== false) {
          try {
            size = (await (handle as FileSystemFileHandle).getFile()).size;
          } catch (error) {
            // Removed or replaced while listing: a replaced file is read again, a removed one left out.
            if (!staleSnapshot(error)) throw fromDomError(error, entryPath, 'file');
            const again = await stat(entryPath).catch(() => null);
            if (again === null) return null;
            size = again.size;
          }
        }
        const entry: DirEntry = { path: entryPath, name, directory, size };
        if (twins.has(name)) entry.nfcTwin = true;
        return entry;
      }),
    );
    return entries.filter((e): e is DirEntry => e !== null).sort((a, b) => compareNames(a.name, b.name));
  }

  async function stat(path: string): Promise<FileStat | null> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    if (p.segments.length === 0) return { path: '', directory: true, size: 0 };
    let parent: FileSystemDirectoryHandle;
    try {
      parent = await dirAt(p.segments.slice(0, -1), false);
    } catch (error) {
      if (HarnessError.isInstance(error) && (error.code === 'E_FS_NOT_FOUND' || error.code === 'E_FS_NOT_DIRECTORY'))
        return null;
      throw error;
    }
    const name = p.segments[p.segments.length - 1] as string;
    try {
      const handle = await parent.getFileHandle(name);
      const file = await handle.getFile().catch((error: unknown) => {
        if (staleSnapshot(error)) return handle.getFile(); // replaced by a committing writer: look again
        throw error;
      });
      return { path: p.path, directory: false, size: file.size, modifiedMs: file.lastModified };
    } catch (error) {
      if (errorName(error) === 'NotFoundError') return null;
      if (errorName(error) !== 'TypeMismatchError') throw fromDomError(error, p.path, 'file');
    }
    try {
      await parent.getDirectoryHandle(name);
      return { path: p.path, directory: true, size: 0 };
    } catch (error) {
      if (errorName(error) === 'NotFoundError') return null;
      throw fromDomError(error, p.path, 'directory');
    }
  }

  async function remove(path: string, opts?: { recursive?: boolean }): Promise<void> {
    const p = normalizeWorkspacePath(path);
    requireWrite(p.path);
    forget(p.path);
    const parent = await dirAt(p.segments.slice(0, -1), false);
    try {
      await parent.removeEntry(p.segments[p.segments.length - 1] as string, { recursive: opts?.recursive === true });
    } catch (error) {
      throw fromDomError(error, p.path, 'directory');
    }
  }

  async function mkdir(path: string): Promise<void> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    requireWrite(p.path);
    await dirAt(p.segments, true);
  }

  return withTextMethods({
    access,
    rootName: options.rootName ?? root.name,
    readBytes,
    writeBytes,
    list,
    stat,
    remove,
    mkdir,
  });
}
