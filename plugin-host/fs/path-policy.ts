// The one path policy every WorkspaceFs implementation applies before touching a file system. Pure and
// browser-safe: the File System Access backend, the Node backend and the plugin host calls share it, so a path
// is refused with the same code whichever backend serves the workspace.
//
// Decisions (see CONTEXT.md):
// - Paths are workspace-relative and '/'-separated. '' and '.' name the root.
// - '.' segments are dropped. '..' is resolved lexically *before* any file system access and may never rise
//   above the root at any point ('a/../b' is 'b'; 'a/../../x' and '../x' are E_PATH_ESCAPE). The backends
//   therefore never see a '..' segment, so a symlinked 'a' cannot change what 'a/..' means.
// - One trailing '/' is tolerated ('src/' is 'src'); other empty segments ('a//b') are refused.
// - Names are kept exactly as given for opening files; `key` is the NFC form used to compare names
//   (duplicates, escapes).
// - Names that Windows or Chrome's File System Access API refuse for a real folder are refused everywhere, so a
//   workspace behaves the same in the browser and in Node.
import { HarnessError, quoteUntrusted } from '../errors';

/** Longest accepted path, in UTF-8 bytes (Linux PATH_MAX). */
export const MAX_PATH_BYTES = 4096;
/** Longest accepted single name, in UTF-8 bytes (NAME_MAX on ext4/APFS; NTFS allows 255 UTF-16 units). */
export const MAX_NAME_BYTES = 255;

export type PathErrorCode =
  | 'E_PATH_ABSOLUTE'
  | 'E_PATH_ESCAPE'
  | 'E_PATH_BACKSLASH'
  | 'E_PATH_NUL'
  | 'E_PATH_DRIVE'
  | 'E_PATH_TOO_LONG'
  | 'E_PATH_INVALID';

export interface WorkspacePath {
  /** Exact names from the root to the entry, '.'/'..' resolved. Empty for the root. */
  readonly segments: readonly string[];
  /** The exact names joined with '/'. '' for the root. */
  readonly path: string;
  /** NFC-normalised `path`: compare paths by this, open files by `segments`. */
  readonly key: string;
}

const encoder = new TextEncoder();

// Windows device names, matched on the part before the first dot (so 'con.txt' is a device too). Chrome refuses
// them for real folders (net::IsReservedNameOnWindows) on every platform.
const reservedDevice = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)$/i;
// Characters Windows forbids in names, plus C0 controls and DEL. ':' also covers NTFS alternate data streams.
const forbiddenPrintable = '<>:"|?*';
function forbiddenChar(name: string): string | undefined {
  for (const ch of name) {
    const c = ch.codePointAt(0) as number;
    if (c < 0x20 || c === 0x7f || forbiddenPrintable.includes(ch)) return ch;
  }
  return undefined;
}
// Extensions Chrome's File System Access API refuses outright for real folders (.lnk/.scf/.url, {CLSID}).
const refusedExtension = /\.(lnk|scf|url|\{[^}]*\})$/i;
// With the u flag a surrogate range matches only unpaired halves.
const loneSurrogate = /[\uD800-\uDFFF]/u;

/** Thrown for a path the policy refuses. The message says what to do. */
export function pathError(code: PathErrorCode, path: string, detail?: string): HarnessError {
  const shown = quoteUntrusted(path);
  const messages: Record<PathErrorCode, string> = {
    E_PATH_ABSOLUTE: `The path ${shown} is absolute. Use a path relative to the workspace folder, such as "src/main.ts".`,
    E_PATH_ESCAPE: `The path ${shown} leads outside the workspace folder. Use a path that stays inside it.`,
    E_PATH_BACKSLASH: `The path ${shown} contains a backslash. Separate folders with "/" only.`,
    E_PATH_NUL: `The path ${shown} contains a NUL character. Remove it from the path.`,
    E_PATH_DRIVE: `The path ${shown} names a drive such as "C:". Use a path relative to the workspace folder.`,
    E_PATH_TOO_LONG: `The path ${shown} is too long (at most ${MAX_PATH_BYTES} bytes, ${MAX_NAME_BYTES} bytes per name). Use a shorter path.`,
    E_PATH_INVALID: `The path ${shown} is not a valid workspace path${detail ? `: ${detail}` : ''}. Rename it or choose another path.`,
  };
  return new HarnessError(code, messages[code], { path: path.length > 200 ? path.slice(0, 200) : path });
}

/**
 * Validates and normalises a workspace-relative path. Throws HarnessError with an E_PATH_* code.
 * `allowRoot` accepts '' / '.' (for list, stat, mkdir); otherwise the root is E_PATH_INVALID.
 */
export function normalizeWorkspacePath(input: unknown, options: { allowRoot?: boolean } = {}): WorkspacePath {
  if (typeof input !== 'string') {
    throw pathError('E_PATH_INVALID', String(input), 'a path must be a string');
  }
  // Order matters only for which code a path with several faults gets: the most specific first.
  if (input.includes('\u0000')) throw pathError('E_PATH_NUL', input);
  if (/^[A-Za-z]:/.test(input)) throw pathError('E_PATH_DRIVE', input);
  if (input.startsWith('/') || input.startsWith('\\')) throw pathError('E_PATH_ABSOLUTE', input);
  if (input.includes('\\')) throw pathError('E_PATH_BACKSLASH', input);
  if (encoder.encode(input).length > MAX_PATH_BYTES) throw pathError('E_PATH_TOO_LONG', input);
  // Lone surrogates cannot be encoded as a file name on any backend (Chrome converts names to UTF-8).
  if (loneSurrogate.test(input)) throw pathError('E_PATH_INVALID', input, 'it contains an unpaired surrogate');

  const raw = input.endsWith('/') && input.length > 1 ? input.slice(0, -1) : input;
  const parts = raw === '' ? [] : raw.split('/');
  const segments: string[] = [];
  for (const part of parts) {
    const nfc = part.normalize('NFC');
    if (part === '') throw pathError('E_PATH_INVALID', input, 'it contains an empty name ("//")');
    if (nfc === '.') continue;
    if (nfc === '..') {
      if (segments.length === 0) throw pathError('E_PATH_ESCAPE', input);
      segments.pop();
      continue;
    }
    checkName(part, input);
    segments.push(part);
  }
  if (segments.length === 0 && !options.allowRoot) {
    throw pathError('E_PATH_INVALID', input, 'it names the workspace folder itself, not an entry inside it');
  }
  const path = segments.join('/');
  return { segments, path, key: path.normalize('NFC') };
}

/** Why a single name is refused, or null when it is acceptable. Exported for listing and UI checks. */
export function nameProblem(name: string): string | null {
  if (name === '' || name === '.' || name === '..') return 'it is empty, "." or ".."';
  if (name.includes('/') || name.includes('\\')) return 'it contains a path separator';
  if (name.includes('\u0000')) return 'it contains a NUL character';
  if (encoder.encode(name).length > MAX_NAME_BYTES) return `a name is longer than ${MAX_NAME_BYTES} bytes`;
  const bad = forbiddenChar(name);
  if (bad !== undefined)
    return `the name ${quoteUntrusted(name)} contains ${JSON.stringify(bad)}, which Windows and Chrome refuse`;
  // Windows silently strips trailing dots and spaces, so 'a.' would alias 'a'.
  if (/[. ]$/.test(name)) return `the name ${quoteUntrusted(name)} ends with a dot or a space, which Windows strips`;
  const stem = name.split('.')[0]?.trimEnd() ?? '';
  if (reservedDevice.test(stem)) return `the name ${quoteUntrusted(name)} is a reserved Windows device name`;
  if (refusedExtension.test(name))
    return `Chrome refuses files named ${quoteUntrusted(name)} (.lnk, .scf, .url and {CLSID} extensions)`;
  return null;
}

function checkName(name: string, input: string): void {
  if (encoder.encode(name).length > MAX_NAME_BYTES) throw pathError('E_PATH_TOO_LONG', input);
  const problem = nameProblem(name);
  if (problem) throw pathError('E_PATH_INVALID', input, problem);
}

/** Joins a normalised parent path and an exact child name. */
export function joinWorkspacePath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}/${name}`;
}

/** True when two names are the same after NFC normalisation (e.g. precomposed 'é' and 'e' + U+0301). */
export function sameName(a: string, b: string): boolean {
  return a.normalize('NFC') === b.normalize('NFC');
}

/** Names in `names` that have an NFC twin with different code points in the same list. */
export function nfcCollisions(names: Iterable<string>): Set<string> {
  const byKey = new Map<string, string[]>();
  for (const name of names) {
    const key = name.normalize('NFC');
    const list = byKey.get(key);
    if (list) list.push(name);
    else byKey.set(key, [name]);
  }
  const out = new Set<string>();
  for (const list of byKey.values()) if (list.length > 1) for (const name of list) out.add(name);
  return out;
}

/** Code-unit order, the same in every backend and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
