// Headless `i` never writes a terminal control sequence that came from the model, a tool or a provider's error:
// human-readable output shows ESC, C0, C1, DEL and bidi characters escaped; `--json` events stay exact JSON.
// In-process through runCli (the process wrapper only adds signal and stdin handling).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { runCli } from './run';

const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e\x7f';
/** Joiners that Persian and emoji sequences need: shown as they are. */
const SCRIPTS = 'می\u200cخواهم 👨\u200d👩\u200d👧';

/** Code units a terminal or a bidi algorithm acts on; newline and tab are layout. */
const rawControls = (text: string) =>
  [...text]
    .map((ch) => ch.charCodeAt(0))
    .filter(
      (c) =>
        (c < 0x20 && c !== 0x0a && c !== 0x09) ||
        (c >= 0x7f && c <= 0x9f) ||
        (c >= 0x202a && c <= 0x202e) ||
        (c >= 0x2066 && c <= 0x2069),
    );

let server: ModelServer | undefined;
const roots: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function runI(script: ScriptTurn[], json: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  server = await startModelServer({ script });
  const root = mkdtempSync(join(tmpdir(), 'i-tty-'));
  roots.push(root);
  const dir = join(root, 'project');
  const configDir = join(root, 'conf');
  mkdirSync(dir);
  mkdirSync(configDir);
  writeFileSync(
    join(configDir, 'config.json'),
    JSON.stringify({
      budget: { context_window: 1_000_000 },
      protocol: 'deepseek',
      base_url: server.baseUrl('deepseek'),
      model: 'scripted',
    }),
  );
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: ['-C', dir, '-p', 'go', ...(json ? ['--json'] : [])],
    env: {
      I_CONFIG_DIR: configDir,
      I_DATA_DIR: join(root, 'data'),
      I_CACHE_DIR: join(root, 'cache'),
      I_RUNTIME_DIR: join(root, 'run'),
    },
    cwd: root,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    signal: new AbortController().signal,
    version: 'test',
  });
  return { code, stdout, stderr };
}

const hostileTurns = (): ScriptTurn[] => [
  { text: `thinking ${HOSTILE}`, toolCalls: [{ name: 'read', arguments: { path: `missing${HOSTILE}.txt` } }] },
  { toolCalls: [{ name: `evil${HOSTILE}`, arguments: {} }] },
  { text: `answer ${HOSTILE}\nsecond line\tend ${SCRIPTS}` },
];

describe('i shows untrusted text safely', () => {
  it('escapes model text and tool names on the terminal, keeping newlines, tabs and script joiners', async () => {
    const r = await runI(hostileTurns(), false);
    expect(rawControls(r.stdout)).toEqual([]);
    expect(rawControls(r.stderr)).toEqual([]);
    expect(r.stdout).toBe(`answer \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202e\\x7f\nsecond line\tend ${SCRIPTS}\n`);
    // The read of the hostile path is listed; the call with the hostile tool name is refused as a batch (no line).
    expect(r.stderr).toMatch(/^\[read\] refused\/failed: E_[A-Z_]+\n/);
  });

  it('writes --json events without raw control characters that parse back to the exact text', async () => {
    const r = await runI(hostileTurns(), true);
    expect(rawControls(r.stdout)).toEqual([]);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.at(-1)).toMatchObject({ type: 'done', text: `answer ${HOSTILE}\nsecond line\tend ${SCRIPTS}` });
    expect(
      events
        .filter((e) => e.type === 'text')
        .map((e) => e.delta)
        .join(''),
    ).toContain(`thinking ${HOSTILE}`);
  });

  it('escapes a provider error message quoted in the error line, which stays one line', async () => {
    const r = await runI([{ error: { status: 400, message: `refused ${HOSTILE}\nerror E_FAKE: forged` } }], false);
    expect(r.code).toBe(1);
    expect(rawControls(r.stderr)).toEqual([]);
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error E_[A-Z_]+: .*refused \\x1b\]0;pwned.*\\x0aerror E_FAKE: forged/),
      '',
    ]);
    const j = await runI([{ error: { status: 400, message: `refused ${HOSTILE}` } }], true);
    expect(rawControls(j.stdout)).toEqual([]);
    expect(JSON.stringify(JSON.parse(j.stdout.trim().split('\n').at(-1)!))).toContain(
      JSON.stringify(`refused ${HOSTILE}`).slice(1, -1),
    );
  });
});
