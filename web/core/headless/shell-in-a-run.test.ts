// The shell tool in a real headless run (issue 31), in-process through runCli against the scripted model server,
// with real processes and the real bubblewrap: what the model gets back, live `--json` output, approval (a prefix
// rule, mode auto and network), `--sandbox off`, and the refusal when the sandbox is missing.
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

type Call = { name: string; arguments: Record<string, unknown> };
type Event = Record<string, unknown> & { type: string };

async function run(
  calls: Call[],
  args: string[],
  config: { approval?: object; shell?: object; env?: Record<string, string>; files?: Record<string, string> } = {},
) {
  server = await startModelServer({ script: [{ toolCalls: calls }, { text: 'done' }] });
  const root = mkdtempSync(join(tmpdir(), 'i-shell-run-'));
  roots.push(root);
  const dir = join(root, 'project');
  const conf = join(root, 'conf');
  for (const d of [dir, conf]) mkdirSync(d);
  for (const [path, text] of Object.entries(config.files ?? {})) writeFileSync(join(dir, path), text);
  writeFileSync(
    join(conf, 'model.json'),
    JSON.stringify({
      budget: { context_window: 1_000_000 },
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
    }),
  );
  if (config.approval) writeFileSync(join(conf, 'approval.json'), JSON.stringify(config.approval));
  if (config.shell) writeFileSync(join(conf, 'shell.json'), JSON.stringify(config.shell));
  let stdout = '';
  let stderr = '';
  const code = await runCli({
    argv: ['-C', dir, '--config', join(conf, 'model.json'), '--json', ...args, '-p', 'go'],
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: root,
      I_CONFIG_DIR: conf,
      I_DATA_DIR: join(root, 'data'),
      I_APPROVAL_TOKEN: 'secret-approval-token',
      ...config.env,
    },
    cwd: dir,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    signal: new AbortController().signal,
    version: 'test',
  });
  const events = stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event);
  const results = events.filter((e) => e.type === 'tool_result') as Array<
    Event & { output: string; error: boolean; code?: string }
  >;
  // What the model was sent back: the tool messages of the second request.
  const sent = () =>
    ((server!.requests[1]?.body as { messages: Array<{ role: string; content: string }> }).messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
  return { code, stdout, stderr, events, results, sent, dir, root };
}

describe('the shell tool in a headless run', () => {
  it('sends the command’s output to the model, without the approval token, and streams it live with --json', async () => {
    const r = await run(
      [
        {
          name: 'shell',
          arguments: { command: 'echo hello-from-shell; env | grep -c I_APPROVAL_TOKEN; echo bye >&2' },
        },
      ],
      ['--yolo'],
    );
    expect(r.code).toBe(0);
    const [toModel] = r.sent();
    expect(toModel).toMatch(/^untrusted_tool_data: true\nexit 0 after /);
    expect(toModel).toContain('hello-from-shell\n0\nbye\n'); // grep -c finds no I_APPROVAL_TOKEN
    expect(toModel).not.toContain('secret-approval-token');
    const live = r.events.filter((e) => e.type === 'tool_output');
    expect(live.map((e) => e.delta).join('')).toBe('hello-from-shell\n0\nbye\n');
    const order = r.events.map((e) => e.type);
    expect(order.indexOf('tool_output')).toBeGreaterThan(order.indexOf('tool_call'));
    expect(order.lastIndexOf('tool_output')).toBeLessThan(order.indexOf('tool_result'));
  });

  it('keeps a 3 MB output bounded for the model and whole in the session; live events stay bounded', async () => {
    const command = "head -c 3000000 /dev/zero | tr '\\0' a";
    const r = await run([{ name: 'shell', arguments: { command } }], ['--yolo', '--session-name', 's']);
    const [toModel] = r.sent();
    expect(Buffer.byteLength(toModel!)).toBeLessThan(2000);
    expect(toModel).toMatch(/its last 2048 bytes start at offset \d+/);
    expect(toModel).toMatch(/\[result truncated: \d+ of \d+ bytes shown\. Read the rest with read_result/);
    const log = readFileSync(join(r.dir, '.i', 'sessions', 's', 'log.ndjson'), 'utf8');
    expect(log).toContain('a'.repeat(100_000)); // the session keeps the full text
    const live = r.events.filter((e) => e.type === 'tool_output') as Array<Event & { delta: string; cut?: true }>;
    expect(live.every((e) => Buffer.byteLength(e.delta) <= 4096 + 200)).toBe(true);
    expect(live.reduce((n, e) => n + Buffer.byteLength(e.delta), 0)).toBeLessThan(256 * 1024 + 200);
    expect(live.at(-1)!.cut).toBe(true);
  });

  it('asks about a compound command under a prefix rule that allows its first part', async () => {
    const r = await run(
      [
        { name: 'shell', arguments: { command: 'echo hi there' } },
        { name: 'shell', arguments: { command: 'echo hi && touch pwned' } },
        { name: 'shell', arguments: { command: 'echo hi; touch pwned2' } },
      ],
      [],
      { approval: { rules: [{ decision: 'allow', tool: 'shell', command: 'echo hi' }] } },
    );
    expect(r.results.map((x) => x.code ?? 'ok')).toEqual(['ok', 'E_APPROVAL_REQUIRED', 'E_APPROVAL_REQUIRED']);
    expect(r.results[0]!.output).toContain('hi there\n');
    expect(existsSync(join(r.dir, 'pwned'))).toBe(false);
    expect(existsSync(join(r.dir, 'pwned2'))).toBe(false);
  });

  it('runs sandboxed commands unasked in mode auto, but asks for network or an unsandboxed run', async () => {
    const auto = { approval: { mode: 'auto' } };
    const r = await run(
      [
        { name: 'shell', arguments: { command: 'echo sandboxed' } },
        { name: 'shell', arguments: { command: 'echo online', network: true } },
      ],
      [],
      auto,
    );
    expect(r.results.map((x) => x.code ?? 'ok')).toEqual(['ok', 'E_APPROVAL_REQUIRED']);
    expect(r.results[1]!.output).toContain('the command asks for network access');
    const off = await run([{ name: 'shell', arguments: { command: 'echo unsandboxed' } }], ['--sandbox', 'off'], auto);
    expect(off.results[0]!.code).toBe('E_APPROVAL_REQUIRED');
    expect(off.results[0]!.output).toContain('outside the sandbox (--sandbox off)');
  });

  it('refuses every command when bwrap is missing, and runs it without a sandbox only with --sandbox off', async () => {
    const call = [{ name: 'shell', arguments: { command: 'echo ran' } }];
    const shell = { bwrap: '/nonexistent/bwrap' };
    const missing = await run(call, ['--yolo'], { shell });
    expect(missing.results[0]!.code).toBe('E_SANDBOX_UNAVAILABLE');
    expect(missing.results[0]!.output).toMatch(/Install the package bubblewrap.*--sandbox off/);
    const off = await run(call, ['--yolo', '--sandbox', 'off'], { shell });
    expect(off.results[0]!.error).toBe(false);
    expect(off.results[0]!.output).toContain('ran\n');
    const fromFile = await run(call, ['--yolo'], { shell: { ...shell, sandbox: 'off' } });
    expect(fromFile.results[0]!.output).toContain('ran\n');
  });

  it('records what a sandboxed command changed, so --changes lists it and --revert puts it back', async () => {
    const r = await run(
      [{ name: 'shell', arguments: { command: 'echo x > new.txt; echo more >> old.txt; rm gone.txt' } }],
      ['--yolo', '--session-name', 'w'],
      { files: { 'old.txt': 'old\n', 'gone.txt': 'gone\n' } },
    );
    expect(r.results[0]!.output).toContain(
      'undo: 1 created, 1 modified, 1 deleted (recorded; --revert puts them back)',
    );
    const again = (args: string[]) =>
      runCli({
        argv: ['-C', r.dir, '--session-name', 'w', ...args],
        env: { HOME: r.root, I_CONFIG_DIR: join(r.root, 'conf'), I_DATA_DIR: join(r.root, 'data') },
        cwd: r.dir,
        stdout: (t) => void (out += t),
        stderr: () => {},
        signal: new AbortController().signal,
        version: 'test',
      });
    let out = '';
    expect(await again(['--changes', '--json'])).toBe(0);
    const { changes } = JSON.parse(out) as { changes: Array<{ path: string; change: string; tool: string }> };
    expect(changes.map((c) => [c.path, c.change, c.tool])).toEqual([
      ['gone.txt', 'deleted', 'shell'],
      ['new.txt', 'created', 'shell'],
      ['old.txt', 'modified', 'shell'],
    ]);
    expect(await again(['--revert'])).toBe(0);
    expect(existsSync(join(r.dir, 'new.txt'))).toBe(false);
    expect(readFileSync(join(r.dir, 'old.txt'), 'utf8')).toBe('old\n');
    expect(readFileSync(join(r.dir, 'gone.txt'), 'utf8')).toBe('gone\n');
  });

  it('refuses a bad --sandbox value and a bad shell.json before anything runs (exit 2)', async () => {
    const call = [{ name: 'shell', arguments: { command: 'echo ran' } }];
    expect((await run(call, ['--sandbox', 'maybe'])).code).toBe(2);
    const bad = await run(call, [], { shell: { sandbox: 'sometimes' } });
    expect(bad.code).toBe(2);
    expect(bad.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'E_CONFIG_INVALID' } });
    expect((await run(call, [], { shell: { bwrap: 'bwrap' } })).code).toBe(2);
  });
});
