// hplugin never writes a terminal control sequence that came from a package: manifest fields, plugin output and
// plugin errors are shown with ESC, C0, C1, DEL and bidi characters escaped; --json stays exact JSON.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorderWasm } from '../plugin-host/fixtures/wat/wat';
import { buildPackage, exampleManifest } from '../plugin-host/fixtures/packages/valid-parts';
import { packFixture } from '../plugin-host/runtime/test-kit';
import type { CliIo } from './io';
import { main } from './main';

const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\u009b31m\u202e';
const DESCRIPTION = '\x1b]0;pwned\x07\x1b[2J\x7f';

/** Code units a terminal acts on (newline and tab are layout and allowed). */
const rawControls = (text: string) =>
  [...text]
    .map((ch) => ch.charCodeAt(0))
    .filter((c) => (c < 0x20 && c !== 0x0a && c !== 0x09) || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e));

let dir = '';
let ws = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hplugin-tty-'));
  ws = join(dir, 'ws');
  await mkdir(ws);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function hplugin(terminal: boolean, ...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stdoutIsTerminal: terminal,
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

async function recorder(name: string, frame: object): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, await packFixture(await recorderWasm([frame])));
  return file;
}

describe('hplugin run shows plugin text safely', () => {
  it('escapes the plugin output on a terminal, and keeps it verbatim into a pipe or file', async () => {
    const pkg = await recorder('out.zip', { type: 'done', output: `result ${HOSTILE}\nline two\tend` });
    const tty = await hplugin(true, 'run', pkg, '--tool', 'run', '--args', '{}', '--workspace', ws);
    expect(tty.code).toBe(0);
    expect(rawControls(tty.stdout)).toEqual([]);
    expect(tty.stdout).toBe('result \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202e\nline two\tend');
    const piped = await hplugin(false, 'run', pkg, '--tool', 'run', '--args', '{}', '--workspace', ws);
    expect(piped.stdout).toBe(`result ${HOSTILE}\nline two\tend`);
  });

  it('escapes a plugin error message on stderr, newlines included, so it stays one line', async () => {
    const pkg = await recorder('err.zip', { type: 'error', error: `bad ${HOSTILE}\nerror E_FAKE: forged` });
    const r = await hplugin(false, 'run', pkg, '--tool', 'run', '--args', '{}', '--workspace', ws);
    expect(r.code).toBe(1);
    expect(rawControls(r.stderr)).toEqual([]);
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error E_RUN_PLUGIN_ERROR: bad \\x1b\]0;pwned\\x07.*\\x0aerror E_FAKE: forged$/),
      '',
    ]);
  });
});

describe('hplugin verify shows manifest text safely', () => {
  it('writes no raw control character for a hostile manifest, and --json parses back to the original text', async () => {
    const manifest = exampleManifest();
    const tools = manifest.tools as Array<Record<string, unknown>>;
    // The validator refuses C1 and bidi characters in a description (they hide what it says); C0 controls and DEL
    // are accepted there and shown escaped.
    tools[0]!.description = `Counts words ${DESCRIPTION}`;
    const file = join(dir, 'desc.zip');
    await writeFile(file, await buildPackage({ manifest }));
    const human = await hplugin(true, 'verify', file);
    expect(rawControls(human.stdout + human.stderr)).toEqual([]);
    const json = await hplugin(false, 'verify', file, '--json');
    expect(json.code).toBe(0);
    expect(rawControls(json.stdout)).toEqual([]);
    expect((JSON.parse(json.stdout) as { tools: Array<{ description: string }> }).tools[0]!.description).toBe(
      `Counts words ${DESCRIPTION}`,
    );
  });

  it('shows a refused manifest field escaped in the error line and exact in the --json refusal', async () => {
    const file = join(dir, 'name.zip');
    await writeFile(file, await buildPackage({ manifest: { ...exampleManifest(), id: `evil${HOSTILE}` } }));
    const human = await hplugin(true, 'verify', file);
    expect(human.code).toBe(1);
    expect(rawControls(human.stdout + human.stderr)).toEqual([]);
    expect(human.stderr.split('\n')).toHaveLength(2);
    const json = await hplugin(false, 'verify', file, '--json');
    expect(rawControls(json.stdout)).toEqual([]);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: expect.stringMatching(/^E_/) } });
  });

  it('keeps a hostile file name exact in the --json refusal (C1 and bidi as \\u escapes) and escaped on stderr', async () => {
    const file = join(dir, `missing${HOSTILE}.hplugin.zip`);
    const r = await hplugin(false, 'verify', file, '--json');
    expect(r.code).toBe(1);
    expect(rawControls(r.stdout + r.stderr)).toEqual([]);
    expect(r.stdout).toContain('\\u009b31m\\u202e');
    const refusal = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
    expect(refusal).toMatchObject({ ok: false, error: { code: 'E_FILE_READ' } });
    expect(refusal.error.message).toContain(file);
  });
});
