// WorkspaceFs over node:fs/promises, rooted at one directory: for the headless runner, the packager's
// `hplugin run`, the bridge and tests. Node-only (exported from ./node.ts).
//
// Symbolic links: every path is resolved with realpath and refused with E_PATH_ESCAPE when it resolves outside
// the root's real path, through a link in the last name or in any parent folder. For a path that does not exist
// yet (a write, mkdir), the deepest existing ancestor is resolved and checked the same way, so a symlinked parent
// cannot carry a new file outside, and probing outside names always gives E_PATH_ESCAPE, never E_FS_NOT_FOUND.
// A link that resolves inside works as its target; writes replace the target and keep the link. A dangling link
// is refused with E_FS_BROKEN_LINK (stat gives null), so nothing is ever created at its unchecked target. Listings leave out links that escape or dangle, as
// Chrome leaves out every link. `remove` acts on a link itself, never on what it points to.
// Races with other programs changing the folder between the check and the use are not an isolation guarantee
// (seed 000 §3: "文件系统变化竞态不属于隔离保证"); O_NOFOLLOW narrows them where the platform has it.
//
// Atomic writes: a temporary file in the target's folder, fsync, then rename over the target.
import { constants as fsc, lstatSync, opendirSync, realpathSync, statSync, type Stats } from 'node:fs';
import {
  lstat,
  mkdir as mkdirFs,
  open,
  opendir,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  stat as statFs,
  unlink,
} from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, relative, sep } from 'node:path';
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
  fsError,
  withTextMethods,
  writeAsideThenCommit,
} from './fs-common';
import { lstatOf, makeSlices, readRegularFile, readRegularFileSync, realpathOf } from './node-read-file';

export interface NodeWorkspaceFsOptions {
  /** The workspace folder. Resolved once with realpath; everything must stay inside that real path. */
  root: string;
  access: WorkspaceAccess;
  rootName?: string;
  /** Largest file read or written, in bytes (default 8 MiB). */
  maxBytes?: number;
  /** Most entries one list returns (default 1000). */
  maxEntries?: number;
  /**
   * Make `readBytes` (files up to 256 KiB), `list` and the path check's realpath with synchronous calls, in slices
   * of at most 4 ms before the event loop gets a turn (node-read-file.ts). Several times faster than libuv's pool
   * for many small files; for the CLI, whose event loop has little else to do while a tool runs. Not for servers.
   */
  blockingCalls?: boolean;
}

const O_NOFOLLOW = fsc.O_NOFOLLOW ?? 0;

function errnoOf(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : '';
}

/** Maps a Node errno to a stable E_* refusal. */
export function fromNodeError(error: unknown, path: string): HarnessError {
  if (HarnessError.isInstance(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  switch (errnoOf(error)) {
    case 'ENOENT':
      return fsError('E_FS_NOT_FOUND', path, {}, error);
    case 'ENOTDIR':
      return fsError('E_FS_NOT_DIRECTORY', path, {}, error);
    case 'EISDIR':
      return fsError('E_FS_NOT_FILE', path, {}, error);
    case 'EACCES':
    case 'EPERM':
      return fsError('E_FS_PERMISSION', path, { reason }, error);
    case 'ENOTEMPTY':
      return fsError('E_FS_NOT_EMPTY', path, {}, error);
    case 'ENOSPC':
    case 'EDQUOT':
      return fsError('E_FS_QUOTA', path, {}, error);
    case 'EBUSY':
    case 'ETXTBSY':
      return fsError('E_FS_BUSY', path, { reason }, error);
    case 'ELOOP':
      return fsError('E_FS_BROKEN_LINK', path, { reason }, error);
    case 'ENAMETOOLONG':
      return pathError('E_PATH_TOO_LONG', path);
    default:
      return fsError('E_FS_IO', path, { reason }, error);
  }
}

type Resolved =
  | { exists: true; real: string }
  /** `existing` is the real path of the deepest existing folder; `missing` the exact names below it. */
  | { exists: false; existing: string; missing: readonly string[] };

export async function createNodeWorkspaceFs(options: NodeWorkspaceFsOptions): Promise<WorkspaceFs> {
  const access = options.access;
  const defaultMaxBytes = assertLimit(options.maxBytes, DEFAULT_MAX_FILE_BYTES, 'maxBytes');
  const defaultMaxEntries = assertLimit(options.maxEntries, DEFAULT_MAX_LIST_ENTRIES, 'maxEntries');
  let rootReal: string;
  try {
    rootReal = await realpath(options.root);
    if (!(await statFs(rootReal)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (error) {
    throw fromNodeError(error, options.root);
  }
  const rootPrefix = rootReal.endsWith(sep) ? rootReal : rootReal + sep;
  const inside = (real: string): boolean => real === rootReal || real.startsWith(rootPrefix);
  const turn = options.blockingCalls === true ? makeSlices() : undefined;

  function requireWrite(path: string): void {
    if (access !== 'read-write') throw fsError('E_FS_READ_ONLY', path);
  }

  /** Resolves symlinks and proves the result is inside the root, for existing and not-yet-existing paths. */
  async function resolve(p: WorkspacePath): Promise<Resolved> {
    const segs = p.segments;
    for (let i = segs.length; i >= 0; i -= 1) {
      let real: string;
      try {
        const full = join(rootReal, ...segs.slice(0, i));
        real = turn ? realpathSync.native(full) : await realpathOf(full);
      } catch (error) {
        const code = errnoOf(error);
        if (code === 'ENOENT' || code === 'ENOTDIR') continue;
        throw fromNodeError(error, p.path);
      }
      if (!inside(real)) throw pathError('E_PATH_ESCAPE', p.path);
      if (i === segs.length) return { exists: true, real };
      if (!(await statFs(real)).isDirectory()) throw fsError('E_FS_NOT_DIRECTORY', segs.slice(0, i).join('/'));
      // The next name exists for lstat but not for realpath: a dangling link. Never create through it.
      const next = join(real, segs[i] as string);
      const linkStat = await lstat(next).catch(() => null);
      if (linkStat?.isSymbolicLink()) throw fsError('E_FS_BROKEN_LINK', segs.slice(0, i + 1).join('/'));
      return { exists: false, existing: real, missing: segs.slice(i) };
    }
    // Unreachable: the root itself always resolves.
    throw fsError('E_FS_NOT_FOUND', p.path);
  }

  async function assertNoTwin(dir: string, name: string, path: string): Promise<void> {
    const names = await readdir(dir).catch((error: unknown) => {
      throw fromNodeError(error, path);
    });
    const existing = names.find((n) => n !== name && sameName(n, name));
    if (existing !== undefined) throw fsError('E_FS_NAME_CONFLICT', path, { existing });
  }

  /** Creates the missing folders of a not-yet-existing path (not its last name) and returns the target path. */
  async function prepareCreate(
    p: WorkspacePath,
    r: Extract<Resolved, { exists: false }>,
    createLast: boolean,
  ): Promise<string> {
    const first = r.missing[0] as string;
    const firstPath = p.segments.slice(0, p.segments.length - r.missing.length + 1).join('/');
    await assertNoTwin(r.existing, first, firstPath);
    const target = join(r.existing, ...r.missing);
    try {
      await mkdirFs(createLast ? target : dirname(target), { recursive: true });
    } catch (error) {
      throw fromNodeError(error, p.path);
    }
    return target;
  }

  async function readBytes(path: string, opts?: { maxBytes?: number }): Promise<Uint8Array> {
    const p = normalizeWorkspacePath(path);
    const maxBytes = assertLimit(opts?.maxBytes, defaultMaxBytes, 'maxBytes');
    await turn?.();
    const r = await resolve(p);
    if (!r.exists) throw fsError('E_FS_NOT_FOUND', p.path);
    try {
      if (turn) {
        const bytes = readRegularFileSync(r.real, maxBytes, p.path);
        if (bytes) return bytes;
      }
      return await readRegularFile(r.real, maxBytes, p.path);
    } catch (error) {
      throw fromNodeError(error, p.path);
    }
  }

  async function writeBytes(path: string, data: Uint8Array, opts?: WriteOptions): Promise<void> {
    const p = normalizeWorkspacePath(path);
    requireWrite(p.path);
    if (data.byteLength > defaultMaxBytes) {
      throw fsError('E_FS_TOO_LARGE', p.path, { size: data.byteLength, maxBytes: defaultMaxBytes });
    }
    const r = await resolve(p);
    let hook = opts?.beforeCommit;
    let target: string;
    let mode = 0o666;
    if (r.exists) {
      const info = await statFs(r.real);
      if (info.isDirectory()) throw fsError('E_FS_NOT_FILE', p.path);
      target = r.real;
      mode = info.mode & 0o777;
    } else {
      // The file is absent: beforeCommit runs before any missing folder is made (a refusal leaves nothing behind).
      await hook?.();
      hook = undefined;
      target = await prepareCreate(p, r, false);
    }
    const temp = join(dirname(target), `.${basename(target).slice(0, 200)}.${randomBytes(6).toString('hex')}.i-tmp`);
    // The target keeps its contents until the rename: beforeCommit runs while the temporary file is written.
    await writeAsideThenCommit(
      hook,
      async () => {
        try {
          const handle = await open(temp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | O_NOFOLLOW, mode);
          try {
            await handle.writeFile(data);
            await handle.sync();
          } finally {
            await handle.close();
          }
        } catch (error) {
          throw fromNodeError(error, p.path);
        }
      },
      () => unlink(temp).catch(() => undefined),
      async () => {
        try {
          await rename(temp, target);
        } catch (error) {
          await unlink(temp).catch(() => undefined);
          throw fromNodeError(error, p.path);
        }
      },
    );
  }

  async function list(
    path: string,
    opts?: { maxEntries?: number; truncate?: boolean; sizes?: boolean },
  ): Promise<DirEntry[]> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    const maxEntries = assertLimit(opts?.maxEntries, defaultMaxEntries, 'maxEntries');
    await turn?.();
    const r = await resolve(p);
    if (!r.exists) throw fsError('E_FS_NOT_FOUND', p.path);
    const names: string[] = [];
    /**
     * What the directory read itself said of each entry, when that is all a listing without sizes needs: a plain
     * file or folder (no link, no unknown type) then costs no lstat (search's walk: 10,000 lstat calls fewer).
     */
    const plain = new Map<string, boolean>();
    const note = (entry: { name: string; isFile(): boolean; isDirectory(): boolean }) => {
      if (opts?.sizes === false && (entry.isFile() || entry.isDirectory())) plain.set(entry.name, entry.isDirectory());
    };
    const tooMany = () => {
      if (!opts?.truncate) throw fsError('E_FS_TOO_MANY_ENTRIES', p.path, { maxEntries });
    };
    try {
      if (turn) {
        const dir = opendirSync(r.real);
        try {
          for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
            if (names.length >= maxEntries) {
              tooMany();
              break;
            }
            names.push(entry.name);
            note(entry);
          }
        } finally {
          dir.closeSync();
        }
      } else {
        for await (const entry of await opendir(r.real)) {
          if (names.length >= maxEntries) {
            tooMany();
            break;
          }
          names.push(entry.name);
          note(entry);
        }
      }
    } catch (error) {
      throw fromNodeError(error, p.path);
    }
    const twins = nfcCollisions(names);
    // Blocking: lstat (and a link's realpath + stat) made synchronously, one entry after another.
    const infoOf = turn
      ? (full: string): Stats | null => {
          const info = lstatSync(full);
          if (!info.isSymbolicLink()) return info;
          let target: string;
          try {
            target = realpathSync.native(full);
          } catch {
            return null;
          }
          return inside(target) ? Object.assign(statSync(target), { link: true }) : null;
        }
      : async (full: string): Promise<Stats | null> => {
          const info = await lstatOf(full);
          if (!info.isSymbolicLink()) return info;
          const target = await realpath(full).catch(() => null);
          if (target === null || !inside(target)) return null;
          return Object.assign(await statFs(target), { link: true });
        };
    const entries = await Promise.all(
      names.map(async (name): Promise<DirEntry | null> => {
        const known = plain.get(name);
        if (known !== undefined) {
          const entry: DirEntry = { path: joinWorkspacePath(p.path, name), name, directory: known, size: 0 };
          if (twins.has(name)) entry.nfcTwin = true;
          return entry;
        }
        const full = join(r.real, name);
        try {
          const info = await infoOf(full);
          if (info === null) return null;
          const link = (info as Stats & { link?: boolean }).link === true;
          const directory = info.isDirectory();
          const entry: DirEntry = {
            path: joinWorkspacePath(p.path, name),
            name,
            directory,
            size: directory ? 0 : info.size,
          };
          if (twins.has(name)) entry.nfcTwin = true;
          if (link) entry.link = true;
          return entry;
        } catch (error) {
          if (errnoOf(error) === 'ENOENT') return null; // removed while listing
          throw fromNodeError(error, joinWorkspacePath(p.path, name));
        }
      }),
    );
    return entries.filter((e): e is DirEntry => e !== null).sort((a, b) => compareNames(a.name, b.name));
  }

  async function stat(path: string): Promise<FileStat | null> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    let r: Resolved;
    try {
      r = await resolve(p);
    } catch (error) {
      if (HarnessError.isInstance(error) && (error.code === 'E_FS_NOT_DIRECTORY' || error.code === 'E_FS_BROKEN_LINK'))
        return null;
      throw error;
    }
    if (!r.exists) return null;
    try {
      const info = await statFs(r.real);
      const directory = info.isDirectory();
      return { path: p.path, directory, size: directory ? 0 : info.size, modifiedMs: info.mtimeMs };
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return null;
      throw fromNodeError(error, p.path);
    }
  }

  async function remove(path: string, opts?: { recursive?: boolean }): Promise<void> {
    const p = normalizeWorkspacePath(path);
    requireWrite(p.path);
    const parentPath = { ...p, segments: p.segments.slice(0, -1), path: p.segments.slice(0, -1).join('/') };
    const parent = await resolve(parentPath);
    if (!parent.exists) throw fsError('E_FS_NOT_FOUND', p.path);
    const target = join(parent.real, p.segments[p.segments.length - 1] as string);
    try {
      const info = await lstat(target);
      if (!info.isDirectory()) await unlink(target);
      else if (opts?.recursive === true) await rm(target, { recursive: true });
      else await rmdir(target);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') throw fsError('E_FS_NOT_EMPTY', p.path, {}, error);
      throw fromNodeError(error, p.path);
    }
  }

  async function mkdir(path: string): Promise<void> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    requireWrite(p.path);
    const r = await resolve(p);
    if (r.exists) {
      if (!(await statFs(r.real)).isDirectory()) throw fsError('E_FS_NOT_DIRECTORY', p.path);
      return;
    }
    await prepareCreate(p, r, true);
  }

  async function realPath(path: string): Promise<string> {
    const p = normalizeWorkspacePath(path, { allowRoot: true });
    const r = await resolve(p);
    const inRoot = relative(rootReal, r.exists ? r.real : r.existing);
    return [...(inRoot === '' ? [] : inRoot.split(sep)), ...(r.exists ? [] : r.missing)].join('/');
  }

  return withTextMethods({
    access,
    rootName: options.rootName ?? basename(rootReal),
    readBytes,
    writeBytes,
    list,
    stat,
    remove,
    mkdir,
    realPath,
  });
}
