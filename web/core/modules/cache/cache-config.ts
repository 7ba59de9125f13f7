// cache.json (seed 000 §4, §8): {"enabled", "mode": "observe"|"openai"|"anthropic", "namespace", "stats",
// "target_hit_ratio", "retention" (openai: in_memory|24h), "ttl" (anthropic: 5m|1h)}. Strict: unknown keys and
// values are refused with their path. `stats` is relative to the workspace state root: no absolute path, no `..`.
import { HarnessError } from '../../contracts';

export type CacheMode = 'observe' | 'openai' | 'anthropic';

export interface CacheConfig {
  enabled: boolean;
  mode: CacheMode;
  namespace: string;
  /** Relative to the workspace state root. */
  stats: string;
  target_hit_ratio: number;
  retention?: 'in_memory' | '24h';
  ttl?: '5m' | '1h';
}

export const DEFAULT_CACHE_CONFIG: CacheConfig = {
  enabled: true,
  mode: 'observe',
  namespace: 'default',
  stats: 'metrics/cache-stats.json',
  target_hit_ratio: 0.99,
};

const KEYS = ['enabled', 'mode', 'namespace', 'stats', 'target_hit_ratio', 'retention', 'ttl'];
const fail = (at: string, message: string) => new HarnessError('E_CACHE_CONFIG', `At ${at}: ${message}`, { at });

/** Checks a relative stats path: segments of safe characters, no absolute form, no `.`/`..`, no backslash. */
export function checkStatsPath(path: unknown, at = 'cache.json.stats'): string {
  if (typeof path !== 'string' || path === '' || path.length > 256)
    throw fail(at, 'expected a relative file path such as "metrics/cache-stats.json".');
  if (path.startsWith('/') || path.includes('\\') || /^[A-Za-z]:/.test(path))
    throw fail(at, `"${path}" is absolute; give a path relative to the workspace state folder.`);
  for (const seg of path.split('/')) {
    if (seg === '..' || seg === '.' || seg === '')
      throw fail(
        at,
        `"${path}" may not contain "..", "." or empty segments; it must stay inside the workspace state folder.`,
      );
    if (!/^[A-Za-z0-9._-]+$/.test(seg))
      throw fail(at, `"${seg}" has characters other than letters, digits, ".", "_" and "-".`);
  }
  return path;
}

export function parseCacheConfig(value: unknown, at = 'cache.json'): CacheConfig {
  if (value === undefined || value === null) return { ...DEFAULT_CACHE_CONFIG };
  if (typeof value !== 'object' || Array.isArray(value)) throw fail(at, 'expected an object like {"mode":"observe"}.');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (!KEYS.includes(key)) throw fail(`${at}.${key}`, `unknown key; allowed: ${KEYS.join(', ')}.`);
  const c: CacheConfig = { ...DEFAULT_CACHE_CONFIG };
  if (v.enabled !== undefined) {
    if (typeof v.enabled !== 'boolean') throw fail(`${at}.enabled`, 'expected true or false.');
    c.enabled = v.enabled;
  }
  if (v.mode !== undefined) {
    if (v.mode !== 'observe' && v.mode !== 'openai' && v.mode !== 'anthropic')
      throw fail(`${at}.mode`, 'expected "observe", "openai" or "anthropic".');
    c.mode = v.mode;
  }
  if (v.namespace !== undefined) {
    if (typeof v.namespace !== 'string' || !/^[A-Za-z0-9._:-]{1,128}$/.test(v.namespace))
      throw fail(`${at}.namespace`, 'expected 1–128 letters, digits, ".", "_", ":" or "-".');
    c.namespace = v.namespace;
  }
  if (v.stats !== undefined) c.stats = checkStatsPath(v.stats, `${at}.stats`);
  if (v.target_hit_ratio !== undefined) {
    if (typeof v.target_hit_ratio !== 'number' || !(v.target_hit_ratio >= 0 && v.target_hit_ratio <= 1))
      throw fail(`${at}.target_hit_ratio`, 'expected a number from 0 to 1.');
    c.target_hit_ratio = v.target_hit_ratio;
  }
  if (v.retention !== undefined) {
    if (c.mode !== 'openai') throw fail(`${at}.retention`, 'only the "openai" mode has a retention.');
    if (v.retention !== 'in_memory' && v.retention !== '24h')
      throw fail(`${at}.retention`, 'expected "in_memory" or "24h".');
    c.retention = v.retention;
  }
  if (v.ttl !== undefined) {
    if (c.mode !== 'anthropic') throw fail(`${at}.ttl`, 'only the "anthropic" mode has a ttl.');
    if (v.ttl !== '5m' && v.ttl !== '1h') throw fail(`${at}.ttl`, 'expected "5m" or "1h".');
    c.ttl = v.ttl;
  }
  return c;
}
