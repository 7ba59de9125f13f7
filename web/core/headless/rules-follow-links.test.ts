// Headless `i` judges approval.json rules on the real path behind symbolic links as well as the typed one (issue 29),
// in-process through runCli against the scripted model server, on a real folder with real links: a link into a denied
// folder cannot detour the deny (even with --yolo), a link out of an allowed folder cannot widen the allow (nobody
// can approve, so it is refused), and a trailing "/" covers the whole folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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

const RULES = {
  rules: [
    { decision: 'deny', tool: 'group:writes', path: 'secrets/' },
    { decision: 'allow', tool: 'edit', path: 'docs/**' },
  ],
};

async function run(toolCall: { name: string; arguments: Record<string, unknown> }, args: string[]) {
  server = await startModelServer({ script: [{ toolCalls: [toolCall] }, { text: 'done' }] });
  const root = mkdtempSync(join(tmpdir(), 'i-rule-links-'));
  roots.push(root);
  const dir = join(root, 'project');
  const conf = join(root, 'conf');
  for (const d of [dir, conf, join(dir, 'secrets'), join(dir, 'src'), join(dir, 'docs')]) mkdirSync(d);
  writeFileSync(join(dir, 'secrets', 'key.txt'), 'k\n');
  writeFileSync(join(dir, 'src', 'main.ts'), 'a\n');
  writeFileSync(join(dir, 'docs', 'a.md'), 'a\n');
  symlinkSync('secrets', join(dir, 'notes'));
  symlinkSync('../src', join(dir, 'docs', 'lnk'));
  writeFileSync(
    join(conf, 'model.json'),
    JSON.stringify({
      budget: { context_window: 1_000_000 },
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
    }),
  );
  writeFileSync(join(conf, 'approval.json'), JSON.stringify(RULES));
  let stdout = '';
  await runCli({
    argv: ['-C', dir, '--config', join(conf, 'model.json'), '--json', ...args, '-p', 'go'],
    env: { HOME: root, I_CONFIG_DIR: conf, I_DATA_DIR: join(root, 'data') },
    cwd: dir,
    stdout: (t) => void (stdout += t),
    stderr: () => {},
    signal: new AbortController().signal,
    version: 'test',
  });
  const result = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((e) => e.type === 'tool_result') as { error: boolean; output: string };
  return { result, file: (p: string) => readFileSync(join(dir, p), 'utf8') };
}

describe('headless i: approval rules and symbolic links', () => {
  it('refuses a write through a link into the denied folder "secrets/", even with --yolo', async () => {
    const r = await run({ name: 'write', arguments: { path: 'notes/key.txt', content: 'stolen' } }, ['--yolo']);
    expect(r.result.output).toContain('E_TOOL_DENIED');
    expect(r.result.output).toContain('deny group:writes on secrets/');
    expect(r.file('secrets/key.txt')).toBe('k\n');
  });

  it('does not let "allow edit on docs/**" cover docs/lnk -> ../src: without a person it is not run', async () => {
    const linked = await run(
      { name: 'edit', arguments: { path: 'docs/lnk/main.ts', old_string: 'a', new_string: 'b' } },
      [],
    );
    expect(linked.result.output).toContain('E_APPROVAL_REQUIRED');
    expect(linked.file('src/main.ts')).toBe('a\n');
    await server?.close();
    const plain = await run({ name: 'edit', arguments: { path: 'docs/a.md', old_string: 'a', new_string: 'b' } }, []);
    expect(plain.result).toMatchObject({ error: false });
    expect(plain.file('docs/a.md')).toBe('b\n');
  });
});
