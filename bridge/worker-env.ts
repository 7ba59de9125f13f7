// Seed 000 §2: a worker's environment is cleared to PATH, PYTHONUTF8=1, SystemRoot/TEMP/TMP/HOME/USERPROFILE
// where present, and the four I_*_DIR. API keys, NODE_OPTIONS, proxies, the bridge token: none of it passes.
import type { PathContext } from './protocol';

const PASS_THROUGH = ['PATH', 'SystemRoot', 'TEMP', 'TMP', 'HOME', 'USERPROFILE'] as const;

export function workerEnv(dirs: PathContext, source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASS_THROUGH) {
    // Windows spells Path/SystemRoot in varying case; Node's process.env is case-insensitive there.
    const value = source[name];
    if (typeof value === 'string') env[name] = value;
  }
  env.PYTHONUTF8 = '1';
  env.I_CONFIG_DIR = dirs.config_dir;
  env.I_DATA_DIR = dirs.data_dir;
  env.I_CACHE_DIR = dirs.cache_dir;
  env.I_RUNTIME_DIR = dirs.runtime_dir;
  return env;
}
