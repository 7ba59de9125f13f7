// Before the shared registry, headless i kept a folder's state (memory.json, cache statistics, whatever a module
// wrote) in `<data_dir>/workspaces/<first 32 hex digits of SHA-256(real path)>/`. The first run under the UUID
// moves it into `<data_dir>/workspaces/<UUID>/`, file by file: a hard link to the new name (which fails rather
// than overwrite), then the old name is removed. Where the new folder already has a file of that name (the bridge
// or the app wrote one), both are kept and a warning names them: no data a person had is lost or overwritten.
import { createHash } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import { join } from 'node:path';

/** Where headless i kept a folder's data before the registry: the first 32 hex digits of SHA-256(real path). */
export const legacyWorkspaceKey = (canonicalPath: string): string =>
  createHash('sha256').update(canonicalPath, 'utf8').digest('hex').slice(0, 32);

const errno = (error: unknown) => String((error as { code?: unknown }).code ?? '');

const sameFile = async (a: string, b: string) => {
  const [x, y] = await Promise.all([fsp.stat(a).catch(() => null), fsp.stat(b).catch(() => null)]);
  return x !== null && y !== null && x.dev === y.dev && x.ino === y.ino;
};

/** Moves one file unless `to` exists; false when it was kept because `to` exists. */
async function moveFile(from: string, to: string): Promise<boolean> {
  try {
    await fsp.link(from, to);
  } catch (error) {
    const code = errno(error);
    if (code === 'ENOENT') return true; // another i moved it meanwhile
    if (code === 'EEXIST') {
      // Another i linked this very file a moment ago: the old name is then just a second name of it.
      if (!(await sameFile(from, to))) return false;
    } else {
      // A file system without hard links: copy, refusing to overwrite.
      try {
        await fsp.copyFile(from, to, constants.COPYFILE_EXCL);
      } catch (copyError) {
        if (errno(copyError) === 'EEXIST') return false;
        throw copyError;
      }
    }
  }
  await fsp.unlink(from).catch((error: unknown) => {
    if (errno(error) !== 'ENOENT') throw error;
  });
  return true;
}

async function moveTree(from: string, to: string, kept: string[]): Promise<void> {
  await fsp.mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of await fsp.readdir(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isDirectory()) await moveTree(src, dst, kept);
    else if (!entry.isFile() || !(await moveFile(src, dst))) kept.push(src); // a symlink or a name taken: left as it is
  }
  await fsp.rmdir(from).catch(() => undefined); // only when it is empty now
}

/**
 * Moves the folder's pre-registry state under its UUID. Returns warnings (files kept in the old folder because
 * the new one already has them); nothing when there was nothing to move.
 */
export async function migrateLegacyWorkspaceData(
  dataDir: string,
  canonicalPath: string,
  id: string,
): Promise<string[]> {
  const from = join(dataDir, 'workspaces', legacyWorkspaceKey(canonicalPath));
  const info = await fsp.lstat(from).catch(() => null);
  if (!info?.isDirectory()) return [];
  const kept: string[] = [];
  await moveTree(from, join(dataDir, 'workspaces', id), kept);
  if (kept.length === 0) return [];
  const shown = kept.slice(0, 5).join(', ') + (kept.length > 5 ? ` and ${kept.length - 5} more` : '');
  return [
    `this folder's data from an older i stays in ${from} for ${kept.length} file(s) (${shown}): ${join(dataDir, 'workspaces', id)} already has files of those names. Both were kept; merge them by hand if you need the old ones, then delete ${from}.`,
  ];
}
