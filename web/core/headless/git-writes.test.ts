// Headless `i` and protected paths, in-process through runCli against the scripted model server: a write into .git
// is refused even with --yolo unless --allow-git-writes; an edit of .vscode/settings.json runs only with --yolo
// (approval.json "auto" still needs a person, and headless has none).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { runCli } from './run';
import { USAGE } from './args';

let server: ModelServer | undefined;
const roots: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function runWith(
  toolCall: { name: string; arguments: Record<string, unknown> },
  args: string[],
  approval?: object,
  files: Record<string, string> = {},
) {
  server = await startModelServer({ script: [{ toolCalls: [toolCall] }, { text: 'done' }] });
  const root = mkdtempSync(join(tmpdir(), 'i-git-'));
  roots.push(root);
  const dir = join(root, 'project');
  const conf = join(root, 'conf');
  for (const d of [dir, conf, join(dir, '.git'), join(dir, '.vscode')]) mkdirSync(d);
  writeFileSync(join(dir, '.git', 'config'), '[core]\n');
  writeFileSync(join(dir, '.vscode', 'settings.json'), '{}\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(
    join(conf, 'model.json'),
    JSON.stringify({
      budget: { context_window: 1_000_000 },
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
    }),
  );
  if (approval) writeFileSync(join(conf, 'approval.json'), JSON.stringify(approval));
  let stdout = '';
  const code = await runCli({
    argv: ['-C', dir, '--config', join(conf, 'model.json'), '--json', ...args, '-p', 'go'],
    env: { HOME: root, I_CONFIG_DIR: conf, I_DATA_DIR: join(root, 'data') },
    cwd: dir,
    stdout: (t) => void (stdout += t),
    stderr: () => {},
    signal: new AbortController().signal,
    version: 'test',
  });
  const events = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const results = events.filter((e) => e.type === 'tool_result');
  return {
    code,
    events,
    result: results[0] as { error: boolean; output: string },
    file: (p: string) => readFileSync(join(dir, p), 'utf8'),
  };
}

const gitWrite = {
  name: 'write',
  arguments: { path: 'notes.md/./././../.git/config', content: '[core]\n\tfsmonitor = "touch pwned"\n' },
};
const vscodeEdit = {
  name: 'edit',
  arguments: { path: '.vscode/settings.json', old_string: '{}', new_string: '{"x": 1}' },
};

describe('headless i and protected paths', () => {
  it('refuses a write into .git under --yolo with E_PATH_PROTECTED, naming --allow-git-writes', async () => {
    const r = await runWith(gitWrite, ['--yolo']);
    expect(r.result).toMatchObject({ error: true });
    expect(r.result.output).toContain('E_PATH_PROTECTED');
    expect(r.result.output).toContain('--allow-git-writes');
    expect(r.file('.git/config')).toBe('[core]\n');
  });

  it('writes into .git with --allow-git-writes', async () => {
    const r = await runWith(gitWrite, ['--yolo', '--allow-git-writes']);
    expect(r.result).toMatchObject({ error: false });
    expect(r.file('.git/config')).toContain('fsmonitor');
  });

  it('does not edit .vscode/settings.json in approval mode auto (nobody to ask), and does under --yolo', async () => {
    const auto = await runWith(vscodeEdit, [], { mode: 'auto' });
    expect(auto.result.output).toContain('E_APPROVAL_REQUIRED');
    expect(auto.result.output).toContain('VS Code');
    expect(auto.file('.vscode/settings.json')).toBe('{}\n');
    const yolo = await runWith(vscodeEdit, ['--yolo']);
    expect(yolo.file('.vscode/settings.json')).toBe('{"x": 1}\n');
  });

  it('documents the switch in --help', () => {
    expect(USAGE).toContain('--allow-git-writes');
    expect(USAGE).toContain('Protected paths');
  });
});

describe('headless i and approval rules (approval.json "rules")', () => {
  const srcEdit = { name: 'edit', arguments: { path: 'src/a.ts', old_string: 'a', new_string: 'b' } };
  const rules = {
    rules: [
      { decision: 'allow', tool: 'edit', path: 'src/**' },
      { decision: 'allow', tool: '*' },
      { decision: 'deny', tool: 'group:writes', path: 'secrets/**' },
    ],
  };

  it('runs an edit an allow rule covers without --yolo, and refuses a write a deny rule covers even with --yolo', async () => {
    const allowed = await runWith(srcEdit, [], rules, { 'src/a.ts': 'a\n' });
    expect(allowed.result).toMatchObject({ error: false });
    expect(allowed.file('src/a.ts')).toBe('b\n');
    const denied = await runWith({ name: 'write', arguments: { path: 'secrets/k', content: 'x' } }, ['--yolo'], rules, {
      'secrets/k': 'k\n',
    });
    expect(denied.result.output).toContain('E_TOOL_DENIED');
    expect(denied.result.output).toContain('deny group:writes on secrets/**');
    expect(denied.file('secrets/k')).toBe('k\n');
  });

  it('still needs a person for a protected path under an allow-everything rule', async () => {
    const r = await runWith(vscodeEdit, [], rules);
    expect(r.result.output).toContain('E_APPROVAL_REQUIRED');
    expect(r.file('.vscode/settings.json')).toBe('{}\n');
  });

  it('refuses invalid rules before anything runs, naming the rule and the fix', async () => {
    const r = await runWith(
      srcEdit,
      [],
      { rules: [{ decision: 'allow', tool: 'edit', path: '/etc/**' }] },
      { 'src/a.ts': 'a\n' },
    );
    expect(r.code).toBe(2);
    expect(r.events.at(-1)).toMatchObject({
      type: 'error',
      error: {
        code: 'E_CONFIG_INVALID',
        message: expect.stringMatching(/The approval settings .* are invalid: rules\[0\]\.path: .*"rules": \[/),
      },
    });
    expect(r.file('src/a.ts')).toBe('a\n');
    expect(USAGE).toContain('"group:writes"');
  });
});
