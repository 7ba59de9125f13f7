// Seed 000 §3: the four directories come from I_CONFIG_DIR / I_DATA_DIR / I_CACHE_DIR / I_RUNTIME_DIR, else
// ~/.i/{config,data,cache,runtime} (USERPROFILE is HOME's source on Windows). The bridge derives them itself; a
// request can never move them or the workspace.
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BridgeError } from './errors';
import type { PathContext } from './protocol';

export function resolveDirs(env: NodeJS.ProcessEnv = process.env, overrides: Partial<PathContext> = {}): PathContext {
  const home = (process.platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
  const pick = (name: string, sub: string) => resolve(env[name] || join(home, '.i', sub));
  const dirs: PathContext = {
    config_dir: overrides.config_dir ? resolve(overrides.config_dir) : pick('I_CONFIG_DIR', 'config'),
    data_dir: overrides.data_dir ? resolve(overrides.data_dir) : pick('I_DATA_DIR', 'data'),
    cache_dir: overrides.cache_dir ? resolve(overrides.cache_dir) : pick('I_CACHE_DIR', 'cache'),
    runtime_dir: overrides.runtime_dir ? resolve(overrides.runtime_dir) : pick('I_RUNTIME_DIR', 'runtime'),
  };
  validatePathContext(dirs);
  return dirs;
}

const hasDotDot = (p: string) => p.split(/[\\/]+/).includes('..');
const isInside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel) && !rel.startsWith(`..${sep}`));
};
const realOrSelf = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return p; // not created yet: compare the literal path
  }
};

/** Absolute, no `..`, and config/data never under cache/runtime (checked on literal and resolvable real paths). */
export function validatePathContext(paths: PathContext): void {
  for (const key of ['config_dir', 'data_dir', 'cache_dir', 'runtime_dir'] as const) {
    const value = paths[key];
    if (typeof value !== 'string' || !isAbsolute(value) || hasDotDot(value)) {
      throw new BridgeError(
        'E_PATHS_INVALID',
        `At paths.${key}: expected an absolute path without "..". Fix the I_${key.slice(0, -4).toUpperCase()}_DIR setting.`,
      );
    }
  }
  for (const inner of ['config_dir', 'data_dir'] as const) {
    for (const outer of ['cache_dir', 'runtime_dir'] as const) {
      if (isInside(paths[inner], paths[outer]) || isInside(realOrSelf(paths[inner]), realOrSelf(paths[outer]))) {
        throw new BridgeError(
          'E_PATHS_INVALID',
          `At paths.${inner}: it lies under ${outer}, which may be wiped. Move it elsewhere.`,
        );
      }
    }
  }
}

export const samePaths = (a: PathContext, b: PathContext): boolean =>
  a.config_dir === b.config_dir &&
  a.data_dir === b.data_dir &&
  a.cache_dir === b.cache_dir &&
  a.runtime_dir === b.runtime_dir;

/** Canonical form of a root given on the command line; it must exist and be a folder (a symlink to one is resolved). */
export function canonicalRoot(dir: string): string {
  let real: string;
  try {
    real = realpathSync(resolve(dir));
  } catch {
    throw new BridgeError('E_ROOT_MISSING', `The root ${dir} does not exist. Pass an existing folder to --root.`);
  }
  // A file as a root would authorise calls whose workspace no worker can use as a folder.
  if (!statSync(real).isDirectory()) {
    throw new BridgeError(
      'E_ROOT_NOT_FOLDER',
      `The root ${dir} is a file, not a folder. Pass the project folder to --root.`,
    );
  }
  return real;
}
