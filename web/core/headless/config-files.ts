// The config files headless `i` reads besides the model config: bounded JSON reading (a wrong path to a device or a
// log must neither hang nor be parsed) and approval.json with its rules.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { checkRules, DEFAULT_APPROVAL, parseRules, RuleSet, scopedRules, type ApprovalSettings } from '../approval';
import { HarnessError } from '../contracts';
import { compileSchema } from '../contracts';

const approvalCheck = compileSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      mode: { enum: ['ask', 'auto'] },
      deny_tools: { type: 'array', items: { type: 'string' } },
      rules: { type: 'array' },
    },
  },
  'approval',
);

/** Config files are small; a bigger one is a wrong path (a log, a device, a binary), not a config to parse. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

export async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    // Read at most MAX_CONFIG_BYTES + 1 bytes: /dev/zero or a pipe that never ends must not hang or exhaust memory.
    const handle = await fsp.open(file, 'r');
    try {
      const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
      let length = 0;
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > MAX_CONFIG_BYTES) {
          throw new HarnessError(
            'E_CONFIG_TOO_LARGE',
            `The ${what} ${file} is larger than ${MAX_CONFIG_BYTES} bytes, so it is not a config file. Check the path.`,
            { file, limit: MAX_CONFIG_BYTES },
          );
        }
      }
      text = buffer.subarray(0, length).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (HarnessError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError(
      'E_CONFIG_UNREADABLE',
      `Cannot read the ${what} ${file} (${code ?? String(error)}). Check the path.`,
      { file },
    );
  }
  // Editors on Windows often save UTF-8 with a byte order mark; JSON.parse refuses it.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') {
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `The ${what} ${file} is empty. Write a JSON object in it (see \`i --help\`).`,
      { file },
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `The ${what} ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}. Fix the syntax (see \`i --help\` for the fields).`,
      { file },
    );
  }
}

export async function loadApproval(configDir: string, yolo: boolean): Promise<ApprovalSettings> {
  const file = join(configDir, 'approval.json');
  const exists = await fsp.stat(file).then(
    () => true,
    () => false,
  );
  if (!exists) return { ...DEFAULT_APPROVAL, yolo };
  const value = await readJson(file, 'approval settings');
  const problems = approvalCheck(value);
  // The rules are checked whole (selectors, globs) with the same sentences the app's Settings shows.
  const rules = (value as { rules?: unknown }).rules;
  if (rules !== undefined) problems.push(...checkRules(rules, 'rules'));
  if (problems.length > 0)
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `The approval settings ${file} are invalid: ${problems.join('; ').replace(/\.+$/, '')}. Write {"mode": "ask"|"auto", "deny_tools": [...], "rules": [{"decision": "allow"|"ask"|"deny", "tool": "edit", "path": "src/**"}]} or remove the file (default: ask).`,
      { file },
    );
  const v = value as Partial<ApprovalSettings>;
  return {
    mode: v.mode ?? 'ask',
    deny_tools: v.deny_tools ?? [],
    yolo,
    ...(rules !== undefined ? { rules: new RuleSet(scopedRules(parseRules(rules, 'rules'), [])) } : {}),
  };
}
