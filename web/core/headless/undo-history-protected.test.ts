// Headless `i` and its own undo history (issue 29): the agent cannot write, edit or blank anything under the
// workspace's .i (session logs, checkpoint records and blobs) in approval mode auto nor under --yolo, not even with
// --allow-git-writes, so `i --changes` still lists its earlier writes and `i --revert` can undo them. In-process
// through runCli against the scripted model server, on a real folder.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { runCli } from './run';

let server: ModelServer | undefined;
const roots: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

type ToolCall = { name: string; arguments: Record<string, unknown> };

function project() {
  const root = mkdtempSync(join(tmpdir(), 'i-undo-'));
  roots.push(root);
  const dir = join(root, 'project');
  const conf = join(root, 'conf');
  for (const d of [dir, conf]) mkdirSync(d);
  writeFileSync(join(dir, 'a.txt'), 'first\n');
  return { root, dir, conf };
}

async function run(p: ReturnType<typeof project>, args: string[], toolCalls: ToolCall[] = [], approval?: object) {
  await server?.close();
  server = await startModelServer({ script: [{ toolCalls }, { text: 'done' }] });
  writeFileSync(
    join(p.conf, 'model.json'),
    JSON.stringify({
      budget: { context_window: 1_000_000 },
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
    }),
  );
  rmSync(join(p.conf, 'approval.json'), { force: true });
  if (approval) writeFileSync(join(p.conf, 'approval.json'), JSON.stringify(approval));
  let stdout = '';
  const code = await runCli({
    argv: [
      '-C',
      p.dir,
      '--config',
      join(p.conf, 'model.json'),
      '--json',
      '--session-name',
      'work',
      ...args,
      ...(toolCalls.length ? ['-p', 'go'] : []),
    ],
    env: { HOME: p.root, I_CONFIG_DIR: p.conf, I_DATA_DIR: join(p.root, 'data') },
    cwd: p.dir,
    stdout: (t) => void (stdout += t),
    stderr: () => {},
    signal: new AbortController().signal,
    version: 'test',
  });
  const lines = stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return {
    code,
    lines,
    results: lines.filter((e) => e.type === 'tool_result') as Array<{ error: boolean; output: string }>,
  };
}

const RECORDS = '.i/sessions/work/checkpoints/records.ndjson';
const tamper: ToolCall[] = [
  { name: 'write', arguments: { path: RECORDS, content: '' } },
  { name: 'edit', arguments: { path: `./${RECORDS}`, old_string: '"path":"a.txt"', new_string: '"path":"b.txt"' } },
  { name: 'write', arguments: { path: 'src/../.I/sessions/work/session.json', content: '{}' } },
];

describe('headless i keeps the agent out of its undo history (.i)', () => {
  for (const [mode, args, approval] of [
    ['--yolo', ['--yolo'], undefined],
    ['--yolo --allow-git-writes', ['--yolo', '--allow-git-writes'], undefined],
    ['approval mode auto', [], { mode: 'auto' }],
  ] as const) {
    it(`refuses writes and edits under .i with E_PATH_PROTECTED under ${mode}, so --changes and --revert still see the earlier write`, async () => {
      const p = project();
      const first = await run(p, ['--yolo'], [{ name: 'write', arguments: { path: 'a.txt', content: 'second\n' } }]);
      expect(first.results.map((r) => r.error)).toEqual([false]);
      const records = readFileSync(join(p.dir, RECORDS), 'utf8');
      expect(records).toContain('"path":"a.txt"');

      const second = await run(p, [...args], tamper, approval);
      expect(second.results).toHaveLength(3);
      for (const r of second.results) {
        expect(r.error).toBe(true);
        expect(r.output).toContain('E_PATH_PROTECTED');
        expect(r.output).toContain('undo history');
      }
      // The records only grew (the second turn's marker); the first turn's write is still in them.
      expect(readFileSync(join(p.dir, RECORDS), 'utf8').startsWith(records)).toBe(true);
      expect(existsSync(join(p.dir, 'src'))).toBe(false);

      const listed = await run(p, ['--changes']);
      expect(listed.code).toBe(0);
      const changes = (listed.lines[0] as { changes: Array<{ path: string; turn: number; change: string }> }).changes;
      expect(changes.map((c) => [c.path, c.turn, c.change])).toEqual([['a.txt', 1, 'modified']]);
      const reverted = await run(p, ['--revert']);
      expect(reverted.code).toBe(0);
      expect(readFileSync(join(p.dir, 'a.txt'), 'utf8')).toBe('first\n');
    });
  }
});
