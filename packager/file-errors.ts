// What went wrong reading or writing a file the person named, in words, with what to do next. The codes stay
// E_FILE_READ / E_FILE_WRITE; the errno (ENOENT, EISDIR, …) stays in parentheses for searching.
import { dirname } from 'node:path';

const errno = (error: unknown): string => (error as NodeJS.ErrnoException | null)?.code ?? String(error);

/**
 * `flag` names the option the path came from (`--wasm`), or is undefined for a positional argument;
 * `missingHint` is the sentence for a file that does not exist (e.g. how to build it).
 */
export function readProblem(path: string, error: unknown, flag: string | undefined, missingHint: string): string {
  const code = errno(error);
  const given = flag === undefined ? '' : ` with ${flag}`;
  switch (code) {
    case 'ENOENT':
      return `${path} does not exist (ENOENT). ${missingHint}`;
    case 'EISDIR':
      return `${path} is a folder, not a file (EISDIR). Pass the path of the file itself${given}.`;
    case 'EACCES':
    case 'EPERM':
      return `You may not read ${path} (${code}). Fix its permissions or copy it somewhere readable.`;
    default:
      return `Cannot read ${path} (${code}). Check the path${given}.`;
  }
}

/** `isFolder`: the output path names an existing folder (checked before writing). */
export function writeProblem(path: string, error: unknown, isFolder = false): string {
  if (isFolder) {
    return `-o ${path} is a folder. Give a file name, for example -o ${path.replace(/\/+$/, '')}/NAME.hplugin.zip.`;
  }
  const code = errno(error);
  const folder = dirname(path);
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `Cannot write ${path}: the folder ${folder} does not exist (${code}). Create it first (mkdir -p ${folder}) or choose another -o path.`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `Cannot write ${path}: no permission to write in ${folder} (${code}). Choose another -o path.`;
    default:
      return `Cannot write ${path} (${code}). Check the -o path.`;
  }
}
