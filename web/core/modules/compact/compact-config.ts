// compact.json (seed 000 §4): {"enabled": true, "keep_recent": 4, "images": "keep"|"drop", "prompt": "prompts/compact.txt"}.
// Strict: unknown keys and values are refused with their path. `prompt` names a file relative to compact.json;
// its text (1–32000 characters) replaces the embedded default prompt.
import { HarnessError } from '../../contracts';

export interface CompactConfig {
  enabled: boolean;
  /** Messages always kept verbatim at the end (never fewer than 4 by default; never splitting a tool batch). */
  keep_recent: number;
  /** Images in the summarised part: sent to the summary request (`keep`) or replaced by a note (`drop`). */
  images: 'keep' | 'drop';
  /** Path of the replacement prompt file, relative to compact.json. */
  prompt?: string;
}

export const DEFAULT_COMPACT_CONFIG: CompactConfig = { enabled: true, keep_recent: 4, images: 'keep' };
export const MAX_COMPACT_PROMPT_CHARS = 32_000;

const KEYS = ['enabled', 'keep_recent', 'images', 'prompt'];
const fail = (at: string, message: string) => new HarnessError('E_COMPACT_CONFIG', `At ${at}: ${message}`, { at });

export function parseCompactConfig(value: unknown, at = 'compact.json'): CompactConfig {
  if (value === undefined || value === null) return { ...DEFAULT_COMPACT_CONFIG };
  if (typeof value !== 'object' || Array.isArray(value))
    throw fail(at, 'expected an object like {"enabled": true, "keep_recent": 4}.');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (!KEYS.includes(key)) throw fail(`${at}.${key}`, `unknown key; allowed: ${KEYS.join(', ')}.`);
  const c: CompactConfig = { ...DEFAULT_COMPACT_CONFIG };
  if (v.enabled !== undefined) {
    if (typeof v.enabled !== 'boolean') throw fail(`${at}.enabled`, 'expected true or false.');
    c.enabled = v.enabled;
  }
  if (v.keep_recent !== undefined) {
    if (!Number.isSafeInteger(v.keep_recent) || (v.keep_recent as number) < 1 || (v.keep_recent as number) > 10_000)
      throw fail(`${at}.keep_recent`, 'expected an integer from 1 to 10000.');
    c.keep_recent = v.keep_recent as number;
  }
  if (v.images !== undefined) {
    if (v.images !== 'keep' && v.images !== 'drop') throw fail(`${at}.images`, 'expected "keep" or "drop".');
    c.images = v.images;
  }
  if (v.prompt !== undefined) {
    if (typeof v.prompt !== 'string' || v.prompt === '' || v.prompt.length > 1024)
      throw fail(`${at}.prompt`, 'expected the path of a prompt file, relative to compact.json.');
    c.prompt = v.prompt;
  }
  return c;
}

/** Checks a replacement prompt's text: 1–32000 characters, not only white space. */
export function checkCompactPrompt(text: string, where = 'the compaction prompt'): string {
  if (text.trim() === '')
    throw new HarnessError(
      'E_COMPACT_CONFIG',
      `${where} is empty. Write the instructions for the summary, or remove "prompt" to use the default.`,
    );
  if (text.length > MAX_COMPACT_PROMPT_CHARS)
    throw new HarnessError(
      'E_COMPACT_CONFIG',
      `${where} has ${text.length} characters; the limit is ${MAX_COMPACT_PROMPT_CHARS}.`,
    );
  return text;
}
