// Seed 000 §1: exec is an argv array, never a shell line. A bare program name is looked up on PATH; a name with
// a path separator resolves against the final cwd. cwd defaults to the manifest's folder, a relative cwd is
// relative to that folder, and the result must exist and canonicalise.
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { BridgeError } from './errors';

export interface ResolvedExec {
  /** argv with argv[0] made absolute. */
  argv: string[];
  /** Canonical working directory. */
  cwd: string;
}

/** Where an exec comes from: the desktop manifest (`exec`) by default, or bridge.json's `mcp_servers` (`command`). */
export interface ExecSource {
  code: string;
  field: string;
}
const MANIFEST_EXEC: ExecSource = { code: 'E_MANIFEST_INVALID', field: 'exec' };

export function resolveCwd(
  cwd: string | undefined,
  baseDir: string,
  at: string,
  source: ExecSource = MANIFEST_EXEC,
): string {
  const wanted = cwd === undefined ? baseDir : resolve(baseDir, cwd);
  let real: string;
  try {
    real = realpathSync(wanted);
  } catch {
    throw new BridgeError(source.code, `At ${at}.cwd: the folder ${wanted} does not exist. Create it or fix the path.`);
  }
  if (!statSync(real).isDirectory()) {
    throw new BridgeError(source.code, `At ${at}.cwd: ${real} is not a folder. Point cwd at a folder.`);
  }
  return real;
}

const isExecutable = (file: string): boolean => {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Finds a bare program name on PATH (with PATHEXT on Windows). */
export function lookupOnPath(name: string, pathValue = process.env.PATH ?? ''): string | undefined {
  const exts = process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of pathValue.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue; // a relative PATH entry would depend on the bridge's own cwd
    for (const ext of exts) {
      const candidate = join(dir, name + ext);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

export function resolveExec(exec: string[], cwd: string, at: string, source: ExecSource = MANIFEST_EXEC): ResolvedExec {
  const program = exec[0]!;
  const bare = !program.includes('/') && !(process.platform === 'win32' && program.includes('\\'));
  const found = bare ? lookupOnPath(program) : resolve(cwd, program);
  if (found === undefined || !isExecutable(found)) {
    throw new BridgeError(
      source.code,
      bare
        ? `At ${at}.${source.field}.0: "${program}" is not an executable on PATH. Install it or give its absolute path.`
        : `At ${at}.${source.field}.0: ${found} is not an executable file. Fix the path (relative paths resolve against cwd) or chmod +x it.`,
    );
  }
  return { argv: [found, ...exec.slice(1)], cwd };
}
