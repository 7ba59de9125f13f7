// `i --changes` and `i --revert` as a real process on a real folder, after a --yolo run against the scripted model
// server that edits two files and creates a third (issue 16).
import { mkdirSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { useBuiltCli } from './cli-test-kit';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cli = useBuiltCli('changes');
const runI = (args: string[], cwd: string) => cli(args, { cwd });

// Bytes a text round trip would change: CRLF, a BOM, a lone CR and non-ASCII.
const A = Buffer.from('\ufefffirst line\r\nsecond \u00e9\r\n');
const B = Buffer.from('export const b = 1;\rtail');

async function agentRun() {
  const root = mkdtempSync(join(tmpdir(), 'i-changes-'));
  const dir = join(root, 'project');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'a.txt'), A);
  writeFileSync(join(dir, 'src', 'b.ts'), B);
  server = await startModelServer({
    script: [
      {
        toolCalls: [
          { name: 'edit', arguments: { path: 'a.txt', old_string: 'second', new_string: 'SECOND' } },
          { name: 'edit', arguments: { path: 'src/b.ts', old_string: 'b = 1', new_string: 'b = 2' } },
          { name: 'write', arguments: { path: 'src/c.ts', content: 'export const c = 3;\n' } },
        ],
      },
      { text: 'Changed three files.' },
    ],
  });
  const config = join(root, 'model.json');
  writeFileSync(
    config,
    JSON.stringify({ budget: { context_window: 1_000_000 }, base_url: server.baseUrl('openai'), model: 'm' }),
  );
  const run = await runI(
    ['-C', dir, '--config', config, '--session-name', 'work', '--yolo', '-p', 'change them'],
    root,
  );
  expect(run.stderr).not.toContain('refused');
  expect(run.code).toBe(0);
  expect(readFileSync(join(dir, 'src', 'b.ts'), 'utf8')).toContain('b = 2');
  return { root, dir };
}

describe('i --changes / --revert', () => {
  it('lists what the turn changed, reverts it to identical bytes, and lists it as reverted', async () => {
    const { root, dir } = await agentRun();
    const listed = await runI(['-C', dir, '--session-name', 'work', '--changes', '--json'], root);
    expect(listed.code).toBe(0);
    const changes = JSON.parse(listed.stdout) as { changes: Array<Record<string, unknown>> };
    expect(
      changes.changes.map((c) => [c.path, c.turn, c.tool, c.change, c.bytes_before, c.bytes_after, c.reverted]),
    ).toEqual([
      ['a.txt', 1, 'edit', 'modified', A.byteLength, A.byteLength, false],
      ['src/b.ts', 1, 'edit', 'modified', B.byteLength, B.byteLength, false],
      ['src/c.ts', 1, 'write', 'created', null, 20, false],
    ]);
    const text = await runI(['-C', dir, '--session-name', 'work', '--changes'], root);
    expect(text.stdout).toContain('turn 1:');
    expect(text.stdout).toMatch(/created\s+src\/c\.ts {2}- -> 20 bytes {2}write/);

    const reverted = await runI(['-C', dir, '--session-name', 'work', '--revert'], root);
    expect(reverted.stderr).toBe('');
    expect(reverted.code).toBe(0);
    expect(reverted.stdout).toContain('Reverted 3 file(s) changed by turn 1 and later');
    expect(readFileSync(join(dir, 'a.txt'))).toEqual(A);
    expect(readFileSync(join(dir, 'src', 'b.ts'))).toEqual(B);
    expect(existsSync(join(dir, 'src', 'c.ts'))).toBe(false);

    const after = JSON.parse(
      (await runI(['-C', dir, '--session-name', 'work', '--changes', '--json'], root)).stdout,
    ) as { changes: Array<{ reverted: boolean }>; reverts: unknown[] };
    expect(after.changes.map((c) => c.reverted)).toEqual([true, true, true]);
    expect(after.reverts).toHaveLength(1);
    const again = await runI(['-C', dir, '--session-name', 'work', '--revert', '--json'], root);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      type: 'error',
      error: { code: 'E_REVERT_NOTHING' },
    });
  }, 60_000);

  it('refuses to revert a file changed outside the session (E_REVERT_CONFLICT, exit 1, nothing changed) unless --force', async () => {
    const { root, dir } = await agentRun();
    writeFileSync(join(dir, 'src', 'b.ts'), 'my own edit\n');
    const refused = await runI(['-C', dir, '--session-name', 'work', '--revert', '1'], root);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error E_REVERT_CONFLICT: src\/b\.ts was changed since the agent left it .*--force/,
    );
    expect(readFileSync(join(dir, 'src', 'b.ts'), 'utf8')).toBe('my own edit\n');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toContain('SECOND');
    expect(existsSync(join(dir, 'src', 'c.ts'))).toBe(true);

    const forced = await runI(['-C', dir, '--session-name', 'work', '--revert', '1', '--force'], root);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('src/b.ts  restored  (your changes to it were overwritten: --force)');
    expect(readFileSync(join(dir, 'src', 'b.ts'))).toEqual(B);
    expect(readFileSync(join(dir, 'a.txt'))).toEqual(A);
  }, 60_000);

  it('--redo undoes the last revert (files back to the agent’s bytes, --changes shows the revert undone), with the same conflict refusal', async () => {
    const { root, dir } = await agentRun();
    const agentA = readFileSync(join(dir, 'a.txt'));
    const agentB = readFileSync(join(dir, 'src', 'b.ts'));
    expect((await runI(['-C', dir, '--session-name', 'work', '--revert'], root)).code).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'))).toEqual(A);

    // The person edits a reverted file: redoing would overwrite it, so it is refused and nothing changes.
    writeFileSync(join(dir, 'src', 'b.ts'), 'mine\n');
    const refused = await runI(['-C', dir, '--session-name', 'work', '--redo'], root);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error E_REVERT_CONFLICT: src\/b\.ts was changed .*--force/);
    expect(readFileSync(join(dir, 'a.txt'))).toEqual(A);
    writeFileSync(join(dir, 'src', 'b.ts'), B);

    const redone = await runI(['-C', dir, '--session-name', 'work', '--redo', '--json'], root);
    expect(redone.stderr).toBe('');
    expect(redone.code).toBe(0);
    expect(JSON.parse(redone.stdout)).toMatchObject({
      type: 'redone',
      session: 'work',
      files: [{ path: 'a.txt' }, { path: 'src/b.ts' }, { path: 'src/c.ts' }],
    });
    expect(readFileSync(join(dir, 'a.txt'))).toEqual(agentA);
    expect(readFileSync(join(dir, 'src', 'b.ts'))).toEqual(agentB);
    expect(readFileSync(join(dir, 'src', 'c.ts'), 'utf8')).toBe('export const c = 3;\n');

    const listed = JSON.parse(
      (await runI(['-C', dir, '--session-name', 'work', '--changes', '--json'], root)).stdout,
    ) as {
      changes: Array<{ reverted: boolean }>;
      reverts: Array<{ group: string; tool: string; active: boolean; undoes?: string }>;
    };
    expect(listed.changes.map((c) => c.reverted)).toEqual([false, false, false]);
    expect(listed.reverts.map((g) => [g.tool, g.active])).toEqual([
      ['revert', false],
      ['redo', true],
    ]);
    expect(listed.reverts[1]!.undoes).toBe(listed.reverts[0]!.group);
    expect((await runI(['-C', dir, '--session-name', 'work', '--changes'], root)).stdout).toMatch(
      /revert since turn 1: .*\(undone by a redo\)\nredo \(undid a revert\): /,
    );

    const again = await runI(['-C', dir, '--session-name', 'work', '--redo'], root);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('E_REVERT_NOTHING');
  }, 60_000);

  it.each([
    [['--changes'], '--changes needs --session-name'],
    [['--session-name', 'work', '--revert', 'x1'], 'Unexpected argument'],
    [['--session-name', 'work', '--revert', '0'], '--revert TURN must be a turn number'],
    [['--session-name', 'work', '--force'], '--force only applies to --revert'],
    [['--session-name', 'work', '--changes', '-p', 'hi'], 'runs no turn'],
    [['--session-name', 'nosuch', '--changes'], 'E_SESSION_NOT_FOUND'],
  ])('exits 2 on a usage error: %j', async (args, text) => {
    const dir = mkdtempSync(join(tmpdir(), 'i-changes-usage-'));
    const r = await runI(['-C', dir, ...args], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(text);
  });

  it('documents --changes, --revert, --redo and --force in --help', async () => {
    const r = await runI(['--help'], tmpdir());
    for (const text of ['--changes', '--revert [TURN]', '--redo', '--force', 'E_REVERT_CONFLICT', 'exit 1'])
      expect(r.stdout).toContain(text);
  });
});
