// Headless `i` with native workers, as real processes: the CLI and i-bridge bundled side by side (as
// `npm run build:cli` lays them out), a fixture worker that is a provider for the made-up "my-service" wire API and
// a tool, and a local my-service HTTP server that records what it was sent.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markedToolContent } from '../../agent/native-marks';

const repo = resolve(__dirname, '../../../..');
const fixtures = join(__dirname, '__fixtures__');
const worker = join(fixtures, 'my-service-worker.mjs');
const outDir = join(repo, 'dist', 'cli-test', `${process.pid}-native`);

beforeAll(async () => {
  await build({
    entryPoints: { i: join(repo, 'web/core/headless/cli.ts'), 'i-bridge': join(repo, 'bridge/cli.ts') },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
}, 60_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
  body: { model: string; messages: Array<{ role: string; content: unknown; tool_call_id?: string }>; tools: string[] };
  /** Processes under the running `i` at the time of the request: pid and command line. */
  tree: Array<{ pid: number; args: string }>;
}

let server: Server | undefined;
afterEach(() => server?.close());

/** my-service: asks for `shout` when it is offered and no tool result came back yet; otherwise answers. */
async function myService(
  iPid: () => number | undefined,
  onRequest?: () => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(text) as Seen['body'];
      seen.push({ url: req.url ?? '', headers: req.headers, body, tree: descendants(iPid()) });
      if (onRequest) return onRequest(); // never answers: the test interrupts i meanwhile
      const toolResult = body.messages.find((m) => m.role === 'tool');
      const reply = toolResult
        ? { reply: { text: `final: ${String(toolResult.content)}` }, done: 'stop' }
        : body.tools.includes('shout')
          ? { reply: { text: null, calls: [{ id: 'call_1', name: 'shout', args: { text: 'hi' } }] }, done: 'tool' }
          : { reply: { text: 'plain answer' }, done: 'stop' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function descendants(root: number | undefined): Array<{ pid: number; args: string }> {
  if (root === undefined) return [];
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l)!)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
  const out: Array<{ pid: number; args: string }> = [];
  const walk = (p: number) => {
    for (const r of rows.filter((x) => x.ppid === p)) {
      out.push({ pid: r.pid, args: r.args });
      walk(r.pid);
    }
  };
  walk(root);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Dead or a zombie: an orphan is reaped by whoever adopts it, which may take a while or never happen. */
const gone = (pid: number) => {
  if (!alive(pid)) return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z';
  } catch {
    return process.platform === 'linux';
  }
};

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

function project(config: Record<string, unknown>): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), 'i-native-test-'));
  const dir = join(root, 'project');
  mkdirSync(dir);
  mkdirSync(join(root, 'conf'));
  writeFileSync(join(root, 'conf', 'model.json'), JSON.stringify({ budget: { context_window: 1_000_000 }, ...config }));
  return { root, dir };
}

function runI(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  onSpawn?: (pid: number) => void,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const home = mkdtempSync(join(tmpdir(), 'i-home-'));
    const child = spawn(process.execPath, [join(outDir, 'i.js'), ...args], {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
    if (child.pid) onSpawn?.(child.pid);
  });
}

describe('headless i with native workers (private i-bridge)', () => {
  it('runs a custom protocol through the provider binding: prepared request, key attached, answer printed', async () => {
    const service = await myService(() => undefined);
    const p = project({
      protocol: 'my-service',
      base_url: service.url,
      model: 'm1',
      api_key_env: 'MY_SERVICE_KEY',
      provider: { exec: ['node', worker] },
    });
    const r = await runI(['-C', 'project', '--config', 'conf/model.json', '-p', 'hello'], p.root, {
      MY_SERVICE_KEY: 'sekrit',
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('plain answer\n');
    expect(service.seen).toHaveLength(1);
    expect(service.seen[0]!.url).toBe('/generate');
    expect(service.seen[0]!.headers['x-my-service']).toBe('my-service');
    expect(service.seen[0]!.headers.authorization).toBe('Token sekrit');
    expect(service.seen[0]!.body.model).toBe('m1');
    expect(service.seen[0]!.body.messages.at(-1)).toMatchObject({ role: 'user', content: 'hello' });
  }, 30_000);

  it('offers a plugins manifest tool and runs its hook; with --yolo the tool output reaches the model, and the bridge and workers are gone after exit', async () => {
    let iPid: number | undefined;
    const service = await myService(() => iPid);
    const p = project({
      protocol: 'my-service',
      base_url: service.url,
      model: 'm1',
      plugins: join(fixtures, 'plugins.json'),
      provider: { exec: ['node', worker] },
    });
    const r = await runI(
      ['-C', 'project', '--config', 'conf/model.json', '--yolo', '-p', 'shout hi'],
      p.root,
      {},
      (pid) => (iPid = pid),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`final: ${markedToolContent('SHOUT:HI')}\n`);
    expect(service.seen).toHaveLength(2);
    expect(service.seen[0]!.body.tools).toContain('shout');
    // The manifest's before_request hook ran on both requests.
    expect(service.seen.map((x) => (x.body as { hooked?: boolean }).hooked)).toEqual([true, true]);
    expect(service.seen[1]!.body.messages.find((m) => m.role === 'tool')).toMatchObject({
      tool_call_id: 'call_1',
      content: markedToolContent('SHOUT:HI'),
    });
    const tree = service.seen[1]!.tree;
    const bridge = tree.find((t) => t.args.includes('i-bridge.js'));
    const workers = tree.filter((t) => t.args.includes('my-service-worker.mjs'));
    expect(bridge).toBeDefined();
    expect(workers.length).toBeGreaterThan(0);
    for (const t of [bridge!, ...workers]) expect(alive(t.pid), t.args).toBe(false);
  }, 30_000);

  it('refuses the manifest tool without --yolo: the model is told and the run goes on', async () => {
    const service = await myService(() => undefined);
    const p = project({
      protocol: 'my-service',
      base_url: service.url,
      model: 'm1',
      plugins: join(fixtures, 'plugins.json'),
      provider: { exec: ['node', worker] },
    });
    const r = await runI(['-C', 'project', '--config', 'conf/model.json', '-p', 'shout hi'], p.root);
    expect(r.code).toBe(0);
    const tool = service.seen[1]!.body.messages.find((m) => m.role === 'tool')!;
    expect(String(tool.content)).not.toContain('SHOUT:');
    expect(String(tool.content)).toMatch(/E_[A-Z_]+/);
    expect(r.stderr).toMatch(/\[shout\] refused/);
  }, 30_000);

  it('fails the turn with the worker error when the provider worker crashes: exit 1, prepare ran once, nothing sent', async () => {
    const service = await myService(() => undefined);
    const p = project({
      protocol: 'my-service',
      base_url: service.url,
      model: 'm1',
      provider: { exec: ['node', worker, '--crash-on-prepare', 'crash.log'], cwd: '.' },
    });
    const r = await runI(['-C', 'project', '--config', 'conf/model.json', '-p', 'hello'], p.root);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error E_[A-Z_]+: The provider worker for protocol "my-service" failed in prepare/);
    expect(service.seen).toHaveLength(0);
    // The provider cwd "." is the config file's folder.
    expect(readFileSync(join(p.root, 'conf', 'crash.log'), 'utf8')).toBe('prepare\n');
  }, 30_000);

  it('stops the bridge and its workers when i is interrupted (Ctrl-C) mid-request', async () => {
    let iPid: number | undefined;
    const service = await myService(
      () => iPid,
      () => process.kill(iPid!, 'SIGINT'),
    );
    const p = project({
      protocol: 'my-service',
      base_url: service.url,
      model: 'm1',
      provider: { exec: ['node', worker] },
    });
    const r = await runI(
      ['-C', 'project', '--config', 'conf/model.json', '-p', 'hello'],
      p.root,
      {},
      (pid) => (iPid = pid),
    );
    expect(r.code).toBe(1);
    const tree = service.seen[0]!.tree;
    expect(tree.some((t) => t.args.includes('i-bridge.js'))).toBe(true);
    for (const t of tree) expect(alive(t.pid), t.args).toBe(false);
  }, 30_000);

  it("starts the private bridge without the person's bridge.json, with the config's io limit, and a SIGKILLed i leaves no bridge or worker behind", async () => {
    let iPid: number | undefined;
    const service = await myService(
      () => iPid,
      () => process.kill(iPid!, 'SIGKILL'),
    );
    const p = project({
      protocol: 'my-service',
      base_url: service.url,
      model: 'm1',
      io_limit_bytes: 4096,
      plugins: join(fixtures, 'plugins.json'),
      provider: { exec: ['node', worker] },
    });
    // The person's bridge settings name an MCP server that leaves a mark when started: it must not join this run.
    const configDir = join(p.root, 'config');
    const marker = join(p.root, 'mcp-started');
    mkdirSync(configDir);
    writeFileSync(
      join(configDir, 'bridge.json'),
      JSON.stringify({
        mcp_servers: {
          spy: {
            command: [
              'node',
              '-e',
              `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'); setInterval(() => {}, 1000)`,
            ],
          },
        },
      }),
    );
    const r = await runI(
      ['-C', 'project', '--config', 'conf/model.json', '-p', 'hello'],
      p.root,
      { I_CONFIG_DIR: configDir },
      (pid) => (iPid = pid),
    );
    expect(r.code).toBe(null); // killed
    const tree = service.seen[0]!.tree;
    const bridge = tree.find((t) => t.args.includes('i-bridge.js'));
    expect(bridge?.args).toMatch(/ --no-settings --exit-with-stdin --io-limit-bytes 4096$/);
    expect(service.seen[0]!.body.tools).toContain('shout');
    expect(service.seen[0]!.body.tools.filter((t) => t.startsWith('mcp__'))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    expect(tree.filter((t) => t.args.includes('my-service-worker.mjs')).length).toBeGreaterThan(0);
    // i had no chance to stop anything: the bridge sees its stdin pipe close and takes its workers with it.
    expect(await waitFor(() => tree.every((t) => gone(t.pid)), 5000), JSON.stringify(tree)).toBe(true);
  }, 30_000);

  it('refuses a custom protocol without any provider worker (exit 2, names what to add)', async () => {
    const p = project({ protocol: 'my-service', base_url: 'http://127.0.0.1:9', model: 'm1' });
    const r = await runI(['-C', 'project', '--config', 'conf/model.json', '-p', 'hello'], p.root);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/E_PROVIDER_MISSING: Protocol "my-service" is not built in .*"provider": \{"exec"/);
  }, 30_000);

  it('names what to do when i-bridge is not built next to i', async () => {
    const lone = join(outDir, 'lone');
    mkdirSync(lone, { recursive: true });
    writeFileSync(join(lone, 'i.js'), readFileSync(join(outDir, 'i.js')));
    expect(existsSync(join(lone, 'i-bridge.js'))).toBe(false);
    const p = project({
      protocol: 'my-service',
      base_url: 'http://127.0.0.1:9',
      model: 'm1',
      provider: { exec: ['node', worker] },
    });
    const r = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(
        process.execPath,
        [join(lone, 'i.js'), '-C', 'project', '--config', 'conf/model.json', '-p', 'x'],
        { cwd: p.root, env: { PATH: process.env.PATH ?? '', HOME: dirname(lone) } },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/E_BRIDGE_MISSING: .*npm run build:cli/);
  }, 30_000);
});
