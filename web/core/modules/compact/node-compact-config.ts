// Reads compact.json from config_dir (seed 000 §4) and the replacement prompt it names, relative to the file.
// Absent file: defaults. The prompt path may not be absolute or leave the config folder.
// Precedence of the compaction prompt: compact.json `prompt`, else prompts.json `compact` (seed 000 §4 keeps both),
// else the embedded default. compact.json is the compaction module's own, more specific setting, so it wins.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { HarnessError } from '../../contracts';
import { readJsonFile } from '../../../../plugin-host/fs/node';
import { checkCompactPrompt, parseCompactConfig, type CompactConfig } from './compact-config';
import { readPromptFile, readPromptsConfig } from '../prompts/node-prompts-config';

export async function loadCompactConfig(configDir: string): Promise<{ config: CompactConfig; promptText?: string }> {
  const file = join(configDir, 'compact.json');
  const config = parseCompactConfig(await readJsonFile(file), file);
  if (config.prompt === undefined) {
    const fromPrompts = (await readPromptsConfig(configDir))?.compact;
    return fromPrompts === undefined
      ? { config }
      : {
          config,
          promptText: checkCompactPrompt(
            await readPromptFile(fromPrompts, 'compact'),
            `The compaction prompt file ${fromPrompts} (prompts.json)`,
          ),
        };
  }
  const base = dirname(file);
  const target = resolve(base, config.prompt);
  const rel = relative(base, target);
  if (isAbsolute(config.prompt) || rel.startsWith('..') || isAbsolute(rel)) {
    throw new HarnessError('E_COMPACT_CONFIG', `At ${file}.prompt: "${config.prompt}" must be a path inside ${base}.`, {
      file,
    });
  }
  let text: string;
  try {
    // 4 bytes per character at most: anything larger cannot be a valid prompt, so it is not read whole.
    if ((await stat(target)).size > 4 * 32_000) throw new Error('too large');
    text = await readFile(target, 'utf8');
  } catch (error) {
    throw new HarnessError(
      'E_COMPACT_CONFIG',
      `At ${file}.prompt: cannot read ${target} (missing, unreadable or over 128000 bytes). Create the file or remove "prompt".`,
      { file },
      { cause: error },
    );
  }
  return { config, promptText: checkCompactPrompt(text, target) };
}
