// The system prompt (seed 000 §4 prompts.json, §9): the embedded default, or a replacement of 1–32000 characters,
// with `{{workspace}}` replaced by the workspace name (the folder's name in the browser, which has no absolute
// path; the path in headless `i`). The result is fixed for a session; dynamic memory/skills never join it.
import { HarnessError } from '../../contracts';
import { DEFAULT_SYSTEM_PROMPT } from '../../prompts';

export const SYSTEM_PROMPT_MIN_CHARS = 1;
export const SYSTEM_PROMPT_MAX_CHARS = 32_000;

/** Refuses a replacement prompt outside 1–32000 characters (counted as Unicode code points) or not a string. */
export function validateSystemPrompt(text: unknown, source = 'the system prompt'): string {
  if (typeof text !== 'string') throw new HarnessError('E_PROMPT_INVALID', `${source} must be text.`);
  const chars = Array.from(text).length;
  if (text.trim().length === 0 || chars < SYSTEM_PROMPT_MIN_CHARS) {
    throw new HarnessError(
      'E_PROMPT_EMPTY',
      `${source} is empty. Write a prompt, or remove the replacement to use the built-in one.`,
    );
  }
  if (chars > SYSTEM_PROMPT_MAX_CHARS) {
    throw new HarnessError(
      'E_PROMPT_TOO_LONG',
      `${source} has ${chars} characters; the limit is ${SYSTEM_PROMPT_MAX_CHARS}. Shorten it.`,
      { chars },
    );
  }
  return text;
}

export interface SystemPromptOptions {
  /** Replacement text (already loaded); the embedded default when absent. */
  replacement?: string;
  /** Workspace name or path for `{{workspace}}`. */
  workspace: string;
}

/** The system prompt for one session. Substitution is literal: the workspace name cannot inject `{{…}}` again. */
export function resolveSystemPrompt(options: SystemPromptOptions): string {
  const template =
    options.replacement === undefined
      ? DEFAULT_SYSTEM_PROMPT
      : validateSystemPrompt(options.replacement, 'The replacement system prompt');
  return template.split('{{workspace}}').join(options.workspace);
}
