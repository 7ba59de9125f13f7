// prompts.json (seed 000 §4): {"system": "prompts/system.txt", "compact": "prompts/compact.txt"}. `system` replaces
// the embedded system prompt; `compact` replaces the embedded compaction prompt unless compact.json names its own
// `prompt` (the compaction module's own file is the more specific setting and wins; loadCompactConfig applies it).
// Paths are absolute or relative to prompts.json. Node-only.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readJsonFile } from '../../../../plugin-host/fs/node';
import { HarnessError } from '../../contracts';

/** A prompt file is read only up to this size (4 bytes per character of the 32000-character limit, doubled). */
export const PROMPT_FILE_MAX_BYTES = 256 * 1024;

export interface PromptsConfig {
  file: string;
  /** Absolute path of the system prompt file, when set. */
  system?: string;
  /** Absolute path of the compaction prompt file, when set. */
  compact?: string;
}

/** prompts.json of config_dir, validated (paths resolved, files not yet read); undefined when there is none. */
export async function readPromptsConfig(configDir: string): Promise<PromptsConfig | undefined> {
  const file = join(configDir, 'prompts.json');
  const v = await readJsonFile(file);
  if (v === undefined) return undefined;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new HarnessError(
      'E_PROMPT_CONFIG_INVALID',
      `At ${file}: expected {"system": "prompts/system.txt", "compact": "prompts/compact.txt"}.`,
      { file },
    );
  const out: PromptsConfig = { file };
  for (const [k, path] of Object.entries(v)) {
    if (k !== 'system' && k !== 'compact')
      throw new HarnessError('E_PROMPT_CONFIG_INVALID', `At ${file}.${k}: unknown key; allowed: system, compact.`, {
        file,
      });
    if (typeof path !== 'string' || path === '')
      throw new HarnessError('E_PROMPT_CONFIG_INVALID', `At ${file}.${k}: expected a file path.`, { file });
    out[k] = isAbsolute(path) ? path : resolve(dirname(file), path);
  }
  return out;
}

/** The text of a prompt file named by prompts.json `key`, bounded; a missing or oversized file names its fix. */
export async function readPromptFile(path: string, key: 'system' | 'compact'): Promise<string> {
  const what = key === 'system' ? 'system prompt' : 'compaction prompt';
  const info = await stat(path).catch(() => null);
  if (!info?.isFile())
    throw new HarnessError(
      'E_PROMPT_FILE_MISSING',
      `The ${what} file ${path} (prompts.json) does not exist. Create it or remove "${key}".`,
      { file: path },
    );
  if (info.size > PROMPT_FILE_MAX_BYTES)
    throw new HarnessError(
      'E_PROMPT_TOO_LONG',
      `The ${what} file ${path} is ${info.size} bytes. Shorten it to at most 32000 characters.`,
      { file: path },
    );
  return readFile(path, 'utf8');
}
