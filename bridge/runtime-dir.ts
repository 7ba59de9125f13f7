// The runtime folder (I_RUNTIME_DIR, default ~/.i/runtime) holds the local token (bridge.json), the start lock and
// the process-group records a later start acts on, so it gets the rules of XDG_RUNTIME_DIR: owned by this user,
// mode 0700, refused otherwise. Files in it are never opened through a link someone planted: new files are created
// exclusively under a fresh temporary name (O_EXCL does not follow a symlink) and renamed into place (rename
// replaces a link, it never writes through it), and reads use O_NOFOLLOW and accept only a regular file of ours.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { BridgeError } from './errors';

const POSIX = process.platform !== 'win32';
/** No file the bridge keeps in the runtime folder is larger than this; anything bigger is not one of ours. */
const MAX_READ_BYTES = 64 * 1024;

/**
 * Creates `dir` with mode 0700 when missing, and refuses one that another user owns or that
 * others can enter, since a later start trusts what it finds there. `name` is the setting that chose the folder.
 */
export function preparePrivateDir(dir: string, name = 'I_RUNTIME_DIR'): void {
  try {
    // Parents too are created 0700 (only what is missing; umask may remove more bits, never add).
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new BridgeError(
      'E_RUNTIME_DIR_UNUSABLE',
      `The runtime folder ${dir} cannot be created or written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Set ${name} to a folder you can write.`,
      { runtime_dir: dir },
    );
  }
  const st = statSync(dir);
  if (!st.isDirectory()) {
    throw new BridgeError(
      'E_RUNTIME_DIR_UNUSABLE',
      `The runtime folder ${dir} is not a folder. Remove that file, or set ${name} to a folder.`,
      { runtime_dir: dir },
    );
  }
  if (!POSIX) return; // NTFS ACLs: a folder under the profile is private by default
  const uid = process.getuid!();
  if (st.uid !== uid) {
    throw new BridgeError(
      'E_RUNTIME_DIR_UNSAFE',
      `The runtime folder ${dir} belongs to user ${st.uid}, not to you (${uid}); files another user controls could redirect this bridge. Remove it, or set ${name} to a folder of your own (mode 700).`,
      { runtime_dir: dir, owner: st.uid },
    );
  }
  if ((st.mode & 0o077) !== 0) {
    const mode = (st.mode & 0o777).toString(8);
    throw new BridgeError(
      'E_RUNTIME_DIR_UNSAFE',
      `The runtime folder ${dir} has mode ${mode}: other users can read or plant files in it. Run chmod 700 ${JSON.stringify(dir)}, or set ${name} to a private folder.`,
      { runtime_dir: dir, mode },
    );
  }
}

/** Writes `file` (0600) atomically without following any link at its name or at the temporary name. */
export function writePrivateFile(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = openSync(
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (POSIX ? constants.O_NOFOLLOW : 0),
    0o600,
  );
  try {
    const bytes = Buffer.from(content, 'utf8');
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at);
  } catch (error) {
    closeSync(fd);
    unlinkQuietly(tmp);
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (error) {
    unlinkQuietly(tmp);
    throw error;
  }
}

/** Creates `file` only if nothing (not even a dangling link) has that name; false when it exists. */
export function createExclusive(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (POSIX ? constants.O_NOFOLLOW : 0),
      0o600,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * The text of a small regular file owned by this user, read without following a link; undefined for anything else
 * (missing, a symlink, a folder, another user's file, too large).
 */
export function readPrivateFile(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (POSIX ? constants.O_NOFOLLOW | constants.O_NONBLOCK : 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_READ_BYTES || (POSIX && st.uid !== process.getuid!())) return undefined;
    const buffer = Buffer.alloc(st.size);
    let at = 0;
    while (at < st.size) {
      const n = readSync(fd, buffer, at, st.size - at, at);
      if (n === 0) break;
      at += n;
    }
    return buffer.toString('utf8', 0, at);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
