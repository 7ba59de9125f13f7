// `i smoke` against the scripted model server: the smoke policy headless (no tools, the cap, tool calls refused)
// and its statistics in their own file, never in a project's.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { runCacheReport } from './cache-report';
import { runSmokeCommand } from './smoke-command';

let server: ModelServer | undefined;
const roots: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function setup(script: ScriptTurn[], model: Record<string, unknown> = {}) {
  server = await startModelServer({ script });
  const root = mkdtempSync(join(tmpdir(), 'i-smoke-'));
  roots.push(root);
  const conf = join(root, 'conf');
  const project = join(root, 'project');
  for (const d of [conf, project]) mkdirSync(d);
  writeFileSync(
    join(conf, 'config.json'),
    JSON.stringify({ protocol: 'openai', base_url: server.baseUrl('openai'), model: 'gpt-test', ...model }),
  );
  // The project's cache.json asks for provider cache fields: the smoke request must still only observe.
  writeFileSync(join(conf, 'cache.json'), JSON.stringify({ mode: 'openai', namespace: 'team' }));
  const env = { HOME: root, I_CONFIG_DIR: conf, I_DATA_DIR: join(root, 'data') };
  const run = async (argv: string[], extra: { env?: Record<string, string>; isTTY?: boolean } = {}) => {
    let stdout = '';
    let stderr = '';
    const io = {
      argv,
      env: { ...env, ...extra.env },
      cwd: project,
      stdout: (t: string) => void (stdout += t),
      stderr: (t: string) => void (stderr += t),
      signal: new AbortController().signal,
      version: 'test',
    };
    const code = await runSmokeCommand({ ...io, ...(extra.isTTY ? { isTTY: true } : {}) });
    return { code, stdout, stderr, io };
  };
  return { s: server, root, project, data: join(root, 'data'), run };
}

const capOf = (body: Record<string, unknown>) => body.max_completion_tokens ?? body.max_tokens;

describe('i smoke', () => {
  it('sends one request without tools, capped at 32 tokens, and prints latency, usage and the reply (exit 0)', async () => {
    const { s, run } = await setup([{ text: 'ok', usage: { input: 14, output: 1 } }]);
    const r = await run([]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^smoke {3}openai gpt-test at http:\/\/127\.0\.0\.1:\d+\/v1 \(no tools, output cap 32\)\nok {6}\d+ ms/,
    );
    expect(r.stdout).toContain('usage   14 input, 1 output tokens');
    expect(r.stdout).toContain('reply   ok');
    expect(s.requests).toHaveLength(1);
    const body = s.requests[0]!.body!;
    expect(capOf(body)).toBe(32);
    expect(body).not.toHaveProperty('tools');
    expect(body).not.toHaveProperty('prompt_cache_key');
  });

  it('records into data/metrics/smoke-cache.json only: no project statistics appear, so cache-report finds none', async () => {
    const { run, data, project, root } = await setup([{ text: 'ok', usage: { input: 30, output: 1, cached: 10 } }]);
    const r = await run([]);
    expect(r.code).toBe(0);
    const file = join(data, 'metrics', 'smoke-cache.json');
    expect(r.stdout).toContain(`stats   ${file} (observed only)`);
    const stats = JSON.parse(readFileSync(file, 'utf8'));
    expect(stats).toMatchObject({
      namespace: 'smoke',
      totals: { prepared: 1, observed: 1, input_tokens: 30, cache_read_tokens: 10 },
    });
    expect(existsSync(join(data, 'workspaces'))).toBe(false);
    expect(readdirSync(data)).toEqual(['metrics']);
    let err = '';
    const code = await runCacheReport({
      argv: ['-C', project],
      env: { HOME: root, I_CONFIG_DIR: join(root, 'conf'), I_DATA_DIR: data },
      cwd: project,
      stdout: () => undefined,
      stderr: (t) => void (err += t),
      signal: new AbortController().signal,
      version: 'test',
    });
    expect(code).toBe(2);
    expect(err).toContain('E_CACHE_STATS_MISSING');
  });

  it('refuses a scripted tool call in the answer: E_SMOKE_TOOL_CALL on stderr, exit 1', async () => {
    const { s, run } = await setup([{ toolCalls: [{ name: 'write', arguments: { path: 'x', content: 'y' } }] }]);
    const r = await run([]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^failed {2}\d+ ms/m);
    expect(r.stderr).toMatch(/^error E_SMOKE_TOOL_CALL: The model answered the smoke test with a tool call \(write\)/);
    expect(s.requests[0]!.body).not.toHaveProperty('tools');
  });

  it('--thinking caps at 1024 and still refuses a tool call; --output-cap N sets the cap', async () => {
    const { s, run } = await setup([
      { thinking: 'plan', toolCalls: [{ name: 'read', arguments: {} }] },
      { text: 'ok' },
    ]);
    const thinking = await run(['--thinking', '--json']);
    expect(thinking.code).toBe(1);
    const out = JSON.parse(thinking.stdout);
    expect(out).toMatchObject({
      type: 'smoke',
      version: 1,
      ok: false,
      variant: 'thinking',
      output_cap: 1024,
      error: { code: 'E_SMOKE_TOOL_CALL' },
    });
    const capped = await run(['--output-cap', '200']);
    expect(capped.code).toBe(0);
    expect(s.requests.map((q) => capOf(q.body!))).toEqual([1024, 200]);
  });

  it('refuses an output cap outside 1..1024 before any request (exit 2)', async () => {
    const { s, run } = await setup([]);
    for (const bad of ['0', '1025', 'abc', '0x10']) {
      const r = await run(['--output-cap', bad]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^error E_SMOKE_OUTPUT_CAP: /);
    }
    expect((await run(['--output-cap', '1024', '--bogus'])).stderr).toMatch(/^error E_USAGE: Unknown option --bogus/);
    expect(s.requests).toHaveLength(0);
  });

  it('prints the logo above the report on a terminal, without colour under NO_COLOR, and not with --no-logo', async () => {
    const { run } = await setup([{ text: 'ok' }, { text: 'ok' }, { text: 'ok' }, { text: 'ok' }]);
    const tty = await run([], { isTTY: true });
    expect(tty.stdout).toContain('\x1b[38;2;');
    expect(tty.stdout.indexOf('▀')).toBeLessThan(tty.stdout.indexOf('smoke   '));
    const noColour = await run([], { isTTY: true, env: { NO_COLOR: '1' } });
    expect(noColour.stdout).not.toContain('\x1b');
    expect(noColour.stdout).toContain('█');
    expect((await run(['--no-logo'], { isTTY: true })).stdout).toMatch(/^smoke {3}/);
    expect((await run([])).stdout).toMatch(/^smoke {3}/); // not a terminal: no logo
  });

  it('names the missing key variable (exit 2) and reports a refused key with the variable to check (exit 1)', async () => {
    const { run } = await setup([{ error: { status: 401, message: 'bad key' } }], { api_key_env: 'SMOKE_KEY' });
    const missing = await run([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('error E_API_KEY_MISSING: The environment variable SMOKE_KEY');
    const refused = await run([], { env: { SMOKE_KEY: 'sk-test-wrong-0000' } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error E_PROVIDER_AUTH: .*SMOKE_KEY/);
  });
  it('--image: the vision variant sends the image with the prompt, capped at 1024, tools still refused; a non-image is refused before any request', async () => {
    const { s, run, project } = await setup([
      { text: 'a red square' },
      { toolCalls: [{ name: 'read', arguments: {} }] },
    ]);
    // A 1×1 PNG.
    writeFileSync(
      join(project, 'dot.png'),
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    writeFileSync(join(project, 'notes.txt'), 'not an image');
    const seen = await run(['--image', 'dot.png', '--json']);
    expect(seen.code).toBe(0);
    expect(JSON.parse(seen.stdout)).toMatchObject({
      ok: true,
      variant: 'vision',
      output_cap: 1024,
      reply: 'a red square',
    });
    const content = (s.requests[0]!.body!.messages as Array<{ content: unknown }>)[0]!.content as Array<{
      type: string;
      image_url?: { url: string };
    }>;
    expect(content.map((p) => p.type)).toEqual(['text', 'image_url']);
    expect(content[1]!.image_url!.url).toMatch(/^data:image\/png;base64,iVBOR/);
    const tool = await run(['--image', 'dot.png', '--json']);
    expect(tool.code).toBe(1);
    expect(JSON.parse(tool.stdout)).toMatchObject({
      ok: false,
      variant: 'vision',
      error: { code: 'E_SMOKE_TOOL_CALL' },
    });
    const bad = await run(['--image', 'notes.txt']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error E_SMOKE_IMAGE: --image .*notes\.txt is not a PNG, JPEG, GIF or WebP image/);
    expect(s.requests).toHaveLength(2);
  });
});
