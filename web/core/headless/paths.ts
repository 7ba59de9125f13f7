// Seed 000 §3: I_CONFIG_DIR / I_DATA_DIR / I_CACHE_DIR / I_RUNTIME_DIR override ~/.i/{config,data,cache,runtime};
// on Windows HOME defaults to USERPROFILE. Overrides must be absolute and contain no "..".
import { isAbsolute, join, relative } from 'node:path';
import { HarnessError } from '../contracts';

export interface AppPaths {
  config_dir: string;
  data_dir: string;
  cache_dir: string;
  runtime_dir: string;
}

const VARS: Array<[keyof AppPaths, string, string]> = [
  ['config_dir', 'I_CONFIG_DIR', 'config'],
  ['data_dir', 'I_DATA_DIR', 'data'],
  ['cache_dir', 'I_CACHE_DIR', 'cache'],
  ['runtime_dir', 'I_RUNTIME_DIR', 'runtime'],
];

export function resolveAppPaths(
  env: Record<string, string | undefined>,
  platform: string = process.platform,
): AppPaths {
  const home = env.HOME || (platform === 'win32' ? env.USERPROFILE : undefined);
  const out = {} as AppPaths;
  for (const [key, name, sub] of VARS) {
    const override = env[name];
    if (override) {
      if (!isAbsolute(override) || override.split(/[\\/]/).includes('..')) {
        throw new HarnessError(
          'E_PATH_ENV_INVALID',
          `${name} must be an absolute path without "..", got "${override}".`,
          { name },
        );
      }
      out[key] = override;
    } else {
      if (!home)
        throw new HarnessError(
          'E_HOME_UNKNOWN',
          `Neither ${name} nor HOME is set, so i cannot find its ${sub} folder. Set ${name} or HOME.`,
          { name },
        );
      out[key] = join(home, '.i', sub);
    }
  }
  // Seed 000 §3: config and data must not live under cache or runtime (those may be wiped).
  for (const keep of ['config_dir', 'data_dir'] as const) {
    for (const wipe of ['cache_dir', 'runtime_dir'] as const) {
      const rel = relative(out[wipe], out[keep]);
      if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
        throw new HarnessError(
          'E_PATH_ENV_INVALID',
          `${keep} (${out[keep]}) must not be inside ${wipe} (${out[wipe]}): that folder may be wiped. Point them elsewhere.`,
          { keep, wipe },
        );
      }
    }
  }
  return out;
}
