// The memory of one workspace (seed 000 §3, §9): a small versioned map from keys to short notes, stored as
// `{"version": 1, "entries": {"key": "value", ...}}`. No vector search, no secrets. Limits keep the whole memory
// small enough to ride in every context snapshot.
import { HarnessError } from '../../contracts';

export const MEMORY_VERSION = 1;
export const MEMORY_MAX_ENTRIES = 100;
export const MEMORY_MAX_VALUE_CHARS = 2000;
export const MEMORY_MAX_TOTAL_CHARS = 32_000;
/** 1–64 characters: ASCII letters, digits, `_`, `-`, `.`, starting with a letter or digit. */
export const MEMORY_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export interface MemoryData {
  version: 1;
  entries: Record<string, string>;
}

export const emptyMemory = (): MemoryData => ({ version: MEMORY_VERSION, entries: {} });

/** Strict parse of a stored memory file; anything else is E_MEMORY_CORRUPT (and never overwritten silently). */
export function parseMemory(value: unknown, source = 'memory.json'): MemoryData {
  if (value === undefined) return emptyMemory();
  const bad = (why: string) =>
    new HarnessError(
      'E_MEMORY_CORRUPT',
      `${source} is not a valid memory file (${why}). Fix or remove it; it is not overwritten.`,
      { source },
    );
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not an object');
  const v = value as Record<string, unknown>;
  if (v.version !== MEMORY_VERSION) throw bad(`version ${JSON.stringify(v.version)}, expected ${MEMORY_VERSION}`);
  if (typeof v.entries !== 'object' || v.entries === null || Array.isArray(v.entries))
    throw bad('entries is not an object');
  for (const k of Object.keys(v)) if (k !== 'version' && k !== 'entries') throw bad(`unknown key ${JSON.stringify(k)}`);
  const entries: Record<string, string> = {};
  for (const [key, text] of Object.entries(v.entries)) {
    if (!MEMORY_KEY_PATTERN.test(key) || typeof text !== 'string')
      throw bad(`entry ${JSON.stringify(key.slice(0, 80))}`);
    entries[key] = text;
  }
  if (Object.keys(entries).length > MEMORY_MAX_ENTRIES) throw bad(`more than ${MEMORY_MAX_ENTRIES} entries`);
  return { version: MEMORY_VERSION, entries };
}

export function totalChars(data: MemoryData): number {
  return Object.entries(data.entries).reduce((n, [k, v]) => n + k.length + v.length, 0);
}
