// The first half of "Import .zip": read the archive's directory and judge every entry before anything is
// created. zip.js parses; the decisions (names through the workspace path policy, duplicates, declared sizes,
// links, encryption) are ours, so its own filename check is off ('tolerant') and ours answers with our codes.
import {
  BlobReader,
  ERR_AMBIGUOUS_ARCHIVE,
  ERR_CENTRAL_DIRECTORY_NOT_FOUND,
  ERR_EOCDR_NOT_FOUND,
  ERR_ENCRYPTED_CENTRAL_DIRECTORY,
  ERR_SPLIT_ZIP_FILE,
  ZipReader,
  type Entry,
} from '@zip.js/zip.js';
import { HarnessError, quoteUntrusted } from '../contracts';
import { normalizeWorkspacePath } from '../contracts';
import type { ZipImportLimits } from './limits';
import { refuseImport } from './refusals';

export interface PlannedEntry {
  /** Workspace-relative path the entry becomes (the policy's normalised form, exact names kept). */
  path: string;
  directory: boolean;
  /** Inflated size the archive declares; extraction refuses an entry that inflates past it. */
  declaredBytes: number;
  compressedBytes: number;
  source: Entry;
}

export interface ZipImportPlan {
  entries: PlannedEntry[];
  files: number;
  declaredBytes: number;
  close(): Promise<void>;
}

/** Zip.js options shared by reading the directory and the data: no Worker (the CSP and one less thread to
 * manage), CRC checked, overlapping entries (the non-recursive zip bomb) refused, our own name checks. */
export const READ_OPTIONS = {
  useWebWorkers: false,
  checkCrc32: true,
  checkOverlappingEntry: true,
  filenameValidation: 'tolerant',
  strictness: 'balanced',
} as const;

const DRIVE = /^[a-zA-Z]:/;

/** Why a name cannot be a workspace path, or undefined. Stricter than the path policy: an archive has no
 * business saying 'a/../b' or './x', which the policy would quietly resolve. */
function nameProblem(name: string): { reason: string; pathCode?: string } | undefined {
  if ([...name].some((ch) => (ch.codePointAt(0) as number) < 0x20 || ch === '\u007f'))
    return { reason: 'it holds a control character' };
  if (name.includes('\\')) return { reason: 'it holds a backslash' };
  if (name.startsWith('/')) return { reason: 'it is absolute' };
  if (DRIVE.test(name)) return { reason: 'it names a drive' };
  const segments = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (segments.includes('..')) return { reason: 'it climbs out with “..”' };
  if (segments.some((s) => s === '.' || s === '')) return { reason: 'it has an empty or “.” segment' };
  try {
    normalizeWorkspacePath(segments.join('/'));
  } catch (error) {
    if (!HarnessError.isInstance(error)) throw error;
    return { reason: error.message, pathCode: error.code };
  }
  return undefined;
}

function zipFailure(error: unknown): HarnessError {
  if (HarnessError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (message === ERR_EOCDR_NOT_FOUND) return refuseImport('E_PACKAGE_NOT_ZIP', 'The file has no ZIP directory.');
  if (message === ERR_AMBIGUOUS_ARCHIVE)
    return refuseImport('E_PACKAGE_HEADER_MISMATCH', 'The archive can be read in more than one way.');
  if (message === ERR_ENCRYPTED_CENTRAL_DIRECTORY)
    return refuseImport('E_PACKAGE_ENCRYPTED', 'The archive’s directory is encrypted.');
  if (message === ERR_SPLIT_ZIP_FILE)
    return refuseImport('E_PACKAGE_MALFORMED', 'The archive is one part of a split archive.');
  if (message === ERR_CENTRAL_DIRECTORY_NOT_FOUND)
    return refuseImport('E_PACKAGE_MALFORMED', 'The archive’s directory is missing or cut short.');
  return refuseImport('E_PACKAGE_MALFORMED', `The archive could not be read (${quoteUntrusted(message)}).`);
}

/** Reads and judges the directory of `archive`; throws the first refusal. The caller closes the plan. */
export async function planZipImport(archive: Blob, limits: ZipImportLimits): Promise<ZipImportPlan> {
  if (archive.size > limits.archiveBytes) {
    throw refuseImport(
      'E_PACKAGE_TOO_LARGE',
      `The archive is ${archive.size} bytes; at most ${limits.archiveBytes} can be imported.`,
      { size: archive.size, max: limits.archiveBytes },
    );
  }
  const reader = new ZipReader(new BlobReader(archive), READ_OPTIONS);
  const close = () => reader.close().catch(() => undefined);
  try {
    const entries: PlannedEntry[] = [];
    const seen = new Map<string, string>();
    const folders = new Set<string>();
    let declaredBytes = 0;
    let files = 0;
    // The generator lets a directory of millions of entries be refused at the first one past the limit.
    for await (const source of reader.getEntriesGenerator()) {
      if (entries.length >= limits.entries) {
        throw refuseImport(
          'E_ARCHIVE_TOO_MANY_ENTRIES',
          `The archive has more than ${limits.entries} files and folders.`,
          { max: limits.entries },
        );
      }
      const name = source.filename;
      const problem = nameProblem(name);
      if (problem) {
        throw refuseImport(
          'E_PACKAGE_ENTRY_NAME',
          `The entry ${quoteUntrusted(name)} cannot be unpacked: ${problem.reason.replace(/\.$/, '')}.`,
          { entry: name.slice(0, 200), ...(problem.pathCode ? { pathCode: problem.pathCode } : {}) },
        );
      }
      const where = normalizeWorkspacePath(name.endsWith('/') ? name.slice(0, -1) : name);
      if (source.symlink)
        throw refuseImport('E_PACKAGE_SYMLINK', `The entry ${quoteUntrusted(name)} is a symbolic link.`, {
          entry: where.path,
        });
      if (source.encrypted)
        throw refuseImport('E_PACKAGE_ENCRYPTED', `The entry ${quoteUntrusted(name)} is encrypted.`, {
          entry: where.path,
        });
      const previous = seen.get(where.key);
      if (previous !== undefined) {
        throw refuseImport(
          'E_PACKAGE_DUPLICATE_ENTRY',
          `The entries ${quoteUntrusted(previous)} and ${quoteUntrusted(name)} name the same path.`,
          { entry: where.path },
        );
      }
      seen.set(where.key, name);
      for (let i = 1; i < where.segments.length; i++)
        folders.add(normalizeWorkspacePath(where.segments.slice(0, i).join('/')).key);
      if (source.directory) {
        folders.add(where.key);
        entries.push({ path: where.path, directory: true, declaredBytes: 0, compressedBytes: 0, source });
        continue;
      }
      if (source.compressionMethod !== 0 && source.compressionMethod !== 8) {
        throw refuseImport(
          'E_PACKAGE_METHOD',
          `The entry ${quoteUntrusted(name)} uses compression method ${source.compressionMethod}.`,
          { entry: where.path, method: source.compressionMethod },
        );
      }
      if (source.uncompressedSize > limits.entryBytes) {
        throw refuseImport(
          'E_PACKAGE_ENTRY_TOO_LARGE',
          `The entry ${quoteUntrusted(name)} is ${source.uncompressedSize} bytes; one file may be at most ${limits.entryBytes}.`,
          { entry: where.path, size: source.uncompressedSize, max: limits.entryBytes },
        );
      }
      checkRatio(where.path, source.uncompressedSize, source.compressedSize, limits);
      declaredBytes += source.uncompressedSize;
      if (declaredBytes > limits.totalBytes) {
        throw refuseImport('E_ARCHIVE_TOO_LARGE', `The archive unpacks to more than ${limits.totalBytes} bytes.`, {
          max: limits.totalBytes,
        });
      }
      files++;
      entries.push({
        path: where.path,
        directory: false,
        declaredBytes: source.uncompressedSize,
        compressedBytes: source.compressedSize,
        source,
      });
    }
    // A file that is also a folder ('a' and 'a/b'): which one wins would depend on the order of writing.
    for (const entry of entries) {
      const key = normalizeWorkspacePath(entry.path).key;
      if (!entry.directory && folders.has(key)) {
        throw refuseImport(
          'E_PACKAGE_DUPLICATE_ENTRY',
          `The path ${quoteUntrusted(entry.path)} is both a file and a folder in the archive.`,
          { entry: entry.path },
        );
      }
    }
    return { entries, files, declaredBytes, close };
  } catch (error) {
    await close();
    throw zipFailure(error);
  }
}

/** Refuses an entry whose inflated size is past `ratio` times its compressed size (declared or counted). */
export function checkRatio(path: string, inflated: number, compressed: number, limits: ZipImportLimits): void {
  if (inflated <= limits.ratioFloorBytes) return;
  if (inflated > limits.ratio * Math.max(compressed, 1)) {
    throw refuseImport(
      'E_ARCHIVE_BOMB',
      `The entry ${quoteUntrusted(path)} inflates ${compressed} bytes into ${inflated} or more (past ${limits.ratio}:1).`,
      { entry: path, compressed, inflated, ratio: limits.ratio },
    );
  }
}

export { zipFailure };
