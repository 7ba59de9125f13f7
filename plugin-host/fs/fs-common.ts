// E_FS_* refusals, limits and strict UTF-8 shared by every WorkspaceFs backend, so the same failure reads the same whichever backend
// served it. Each message says what happened and what to do.
import { HarnessError, quoteUntrusted } from '../errors';
import { normalizeWorkspacePath } from './path-policy';
import type { WorkspaceFs } from './workspace-fs';

/** Default largest file read or written, in bytes: 8 MiB (seed 004: "单文件最多 8 MiB"). */
export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
/** Default most entries one `list` returns (seed 004: "目录列表最多 1000 条"). */
export const DEFAULT_MAX_LIST_ENTRIES = 1000;

export type FsErrorCode =
  | 'E_FS_NOT_FOUND'
  | 'E_FS_NOT_FILE'
  | 'E_FS_NOT_DIRECTORY'
  | 'E_FS_NOT_EMPTY'
  | 'E_FS_NOT_UTF8'
  | 'E_FS_TOO_LARGE'
  | 'E_FS_READ_ONLY'
  | 'E_FS_TOO_MANY_ENTRIES'
  | 'E_FS_PERMISSION'
  | 'E_FS_NAME_CONFLICT'
  | 'E_FS_BUSY'
  | 'E_FS_QUOTA'
  | 'E_FS_BROKEN_LINK'
  | 'E_FS_IO';

export function fsError(
  code: FsErrorCode,
  path: string,
  extra: Record<string, unknown> = {},
  cause?: unknown,
): HarnessError {
  const p = quoteUntrusted(path === '' ? '.' : path);
  const messages: Record<FsErrorCode, string> = {
    E_FS_NOT_FOUND: `Nothing exists at ${p} in the workspace. Check the path with a directory listing.`,
    E_FS_NOT_FILE: `${p} is a folder, not a file. Name a file inside it.`,
    E_FS_NOT_DIRECTORY: `${p} (or a folder on its way) is a file, not a folder. Use a path whose parents are folders.`,
    E_FS_NOT_EMPTY: `The folder ${p} is not empty. Remove it with the recursive option, or empty it first.`,
    E_FS_NOT_UTF8: `${p} is not valid UTF-8 text${extra.reason ? ` (${String(extra.reason)})` : ''}. Read or write it as bytes instead.`,
    E_FS_TOO_LARGE: `${p} is larger than the limit of ${String(extra.maxBytes)} bytes. Read a smaller file or raise the limit.`,
    E_FS_READ_ONLY: `The workspace was granted read-only, so ${p} cannot be changed. Grant the folder again with read-write access.`,
    E_FS_TOO_MANY_ENTRIES: `The folder ${p} has more than ${String(extra.maxEntries)} entries. List a smaller folder or raise the limit.`,
    E_FS_PERMISSION: `Access to ${p} is not allowed right now. Restore access to the workspace folder (the browser asks again after a restart) and retry.`,
    E_FS_NAME_CONFLICT: `${p} would duplicate the existing entry ${JSON.stringify(extra.existing)}, which has the same name in another Unicode form. Use the existing name exactly as listed.`,
    E_FS_BUSY: `${p} is being changed by another tab, worker or program. Retry when it is done.`,
    E_FS_QUOTA: `There is not enough storage space to write ${p}. Free some space and retry.`,
    E_FS_BROKEN_LINK: `${p} goes through a symbolic link whose target does not exist. Fix or remove the link.`,
    E_FS_IO: `The file system failed on ${p}${extra.reason ? ` (${String(extra.reason)})` : ''}. Retry; if it persists, check the folder.`,
  };
  return new HarnessError(code, messages[code], { path, ...extra }, cause === undefined ? undefined : { cause });
}

export function errorName(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : '';
}

/** Strict UTF-8: refuses invalid sequences instead of inserting U+FFFD. A leading BOM is kept as U+FEFF. */
export function decodeUtf8Strict(bytes: Uint8Array, path: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw fsError('E_FS_NOT_UTF8', path, {}, error);
  }
}

export function assertLimit(value: number | undefined, fallback: number, what: string): number {
  const n = value ?? fallback;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new HarnessError(
      'E_FS_BAD_OPTION',
      `${what} must be a non-negative integer, got ${String(value)}. Pass a whole number.`,
      { option: what },
    );
  }
  return n;
}

const loneSurrogate = /[\uD800-\uDFFF]/u;

/** UTF-8 encoding that refuses unpaired surrogates instead of writing U+FFFD in their place. */
export function encodeUtf8Strict(text: string, path: string): Uint8Array {
  if (typeof text !== 'string') throw fsError('E_FS_NOT_UTF8', path, { reason: 'text must be a string' });
  if (loneSurrogate.test(text))
    throw fsError('E_FS_NOT_UTF8', path, { reason: 'the text contains an unpaired surrogate' });
  return new TextEncoder().encode(text);
}

/**
 * Completes a backend's byte operations into a WorkspaceFs: the text methods are the byte methods plus strict
 * UTF-8, identical in every backend (errors name the normalised path).
 */
export function withTextMethods(base: Omit<WorkspaceFs, 'readText' | 'writeText'>): WorkspaceFs {
  return {
    ...base,
    readText: async (path, opts) => {
      const p = normalizeWorkspacePath(path);
      return decodeUtf8Strict(await base.readBytes(p.path, opts), p.path);
    },
    writeText: async (path, text, opts) => {
      const p = normalizeWorkspacePath(path);
      await base.writeBytes(p.path, encodeUtf8Strict(text, p.path), opts);
    },
  };
}

/**
 * A backend's write with WriteOptions.beforeCommit: the new contents are written aside (`aside`) while the hook runs;
 * the commit (`commit`: rename, close) waits for both. The hook failing drops what was written aside (`drop`) and is
 * the error; the aside write failing is the error once the hook has settled (its caller sees the write fail and
 * undoes what the hook did).
 */
export async function writeAsideThenCommit(
  beforeCommit: (() => Promise<void>) | undefined,
  aside: () => Promise<void>,
  drop: () => Promise<void>,
  commit: () => Promise<void>,
): Promise<void> {
  // The hook as a promise of its own: one that throws at once is a refusal like a rejection.
  const [hook, written] = await Promise.allSettled([beforeCommit && Promise.resolve().then(beforeCommit), aside()]);
  if (hook.status === 'rejected' || written.status === 'rejected') {
    await drop();
    throw hook.status === 'rejected' ? hook.reason : (written as PromiseRejectedResult).reason;
  }
  await commit();
}
