// The flag walk every `i` command shares (the main one, cache-report, paths, smoke, --provider-action): `--flag value`,
// `--flag=value` and short flags, a value that is missing refused with the command's usage error; and the -C
// project folder check. Each command keeps its own flags and messages.
import { promises as fsp } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../contracts';

/**
 * Calls `on(flag, take, arg, takeIf)` for each argument; `take()` reads the flag's value (after `=` or the next
 * argument); `takeIf(accept)` reads an optional one: after `=`, or the next argument only when `accept` likes it.
 * `on` returns false for an argument it does not know, which is refused with `unknown(arg)`.
 */
export function walkFlags(
  argv: readonly string[],
  usageError: (message: string) => HarnessError,
  on: (
    flag: string,
    take: () => string,
    arg: string,
    takeIf: (accept: (next: string) => boolean) => string | undefined,
  ) => boolean,
  unknown: (arg: string) => string,
): void {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const take = (): string => {
      if (eq > 0) return arg.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined) throw usageError(`${flag} needs a value.`);
      return v;
    };
    const takeIf = (accept: (next: string) => boolean): string | undefined => {
      if (eq > 0) return arg.slice(eq + 1);
      const next = argv[i + 1];
      return next !== undefined && accept(next) ? argv[++i] : undefined;
    };
    if (!on(flag, take, arg, takeIf)) throw usageError(unknown(arg));
  }
}

/** The refusal of an argument a sub-command does not know: an option by name, anything else as unexpected. */
export const unknownFor = (command: string) => (arg: string) =>
  arg.startsWith('-') ? `Unknown option ${arg} for ${command}.` : `Unexpected argument "${arg}".`;

/** The canonical project folder of -C (default: the current directory), or E_WORKSPACE_INVALID. */
export async function projectFolder(cwd: string, dir: string | null): Promise<string> {
  const path = resolve(cwd, dir ?? '.');
  try {
    const workspace = await fsp.realpath(path);
    if (!(await fsp.stat(workspace)).isDirectory()) throw new Error('not a folder');
    return workspace;
  } catch {
    throw new HarnessError(
      'E_WORKSPACE_INVALID',
      `The project folder ${path} does not exist or is not a folder. Check -C.`,
      { dir: path },
    );
  }
}
