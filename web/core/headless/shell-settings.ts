// The shell tool in headless i (issue 31): $I_CONFIG_DIR/shell.json `{"sandbox": "on"|"off", "bwrap": PATH}` (both
// optional; a file that exists is validated strictly, exit 2 when wrong) and `--sandbox on|off`, which wins.
// `--yolo` never turns the sandbox off: it answers approvals, it does not widen what a command can reach.
import { promises as fsp } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { compileSchema, HarnessError } from '../contracts';
import { readJson } from './config-files';

export interface ShellSettings {
  sandbox: 'on' | 'off';
  /** The bwrap program (absolute); absent: `bwrap` on PATH. */
  bwrap?: string;
}

const shellCheck = compileSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: { sandbox: { enum: ['on', 'off'] }, bwrap: { type: 'string', minLength: 1 } },
  },
  'shell',
);

export async function loadShellSettings(configDir: string, flag: 'on' | 'off' | null): Promise<ShellSettings> {
  const file = join(configDir, 'shell.json');
  const exists = await fsp.stat(file).then(
    () => true,
    () => false,
  );
  const value = exists ? await readJson(file, 'shell settings') : {};
  const problems = shellCheck(value);
  const v = value as Partial<ShellSettings>;
  if (problems.length === 0 && v.bwrap !== undefined && !isAbsolute(v.bwrap))
    problems.push('bwrap: expected an absolute path, e.g. "/usr/bin/bwrap"');
  if (problems.length > 0)
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `The shell settings ${file} are invalid: ${problems.join('; ').replace(/\.+$/, '')}. Write {"sandbox": "on"|"off", "bwrap": "/usr/bin/bwrap"} (both optional) or remove the file (default: sandbox on).`,
      { file },
    );
  return { sandbox: flag ?? v.sandbox ?? 'on', ...(v.bwrap !== undefined ? { bwrap: v.bwrap } : {}) };
}
