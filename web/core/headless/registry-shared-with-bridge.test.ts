// One workspace identity for every entry point (seed 000 §3, issue 20), as real processes: the built `i` and the
// built i-bridge side by side (as `npm run build:cli` lays them out), one I_DATA_DIR, one project folder. The
// bridge's example worker `workspace_info` reports the workspace_id the bridge handed it; `i paths` prints the one
// headless i uses. They must be the same UUID whichever process bound it first, and through the private bridge
// that a run of `i` starts for its native tools as well.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';

const repo = resolve(__dirname, '../../..');
const outDir = join(repo, 'dist', 'cli-test', `${process.pid}-registry`);
const exampleWorker = join(repo, 'bridge', 'examples', 'node-worker.mjs');

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

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Setup {
  base: string;
  project: string;
  env: Record<string, string>;
  manifest: string;
}

function setup(): Setup {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'i-registry-shared-')));
  cleanups.push(() => rmSync(base, { recursive: true, force: true }));
  const project = join(base, 'project');
  mkdirSync(project);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: base,
    I_CONFIG_DIR: join(base, 'config'),
    I_DATA_DIR: join(base, 'data'),
    I_CACHE_DIR: join(base, 'cache'),
    I_RUNTIME_DIR: join(base, 'runtime'),
  };
  mkdirSync(env.I_CONFIG_DIR);
  const manifest = join(base, 'manifest.json');
  const tool = {
    name: 'workspace_info',
    description: 'The workspace and its id as the worker sees them.',
    parameters: { type: 'object', properties: {} },
    exec: [process.execPath, exampleWorker],
  };
  writeFileSync(manifest, JSON.stringify({ tools: [tool] }));
  return { base, project, env, manifest };
}

function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(outDir, script), ...args], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

async function iPathsId(s: Setup, dir = s.project): Promise<string> {
  const r = await runNode('i.js', ['paths', '-C', dir, '--json'], s.env, s.base);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.stdout) as { workspace_id: string }).workspace_id;
}

/** Starts the real i-bridge rooted at the project; resolves with its URL and local token (runtime/bridge.json). */
async function startBridge(s: Setup): Promise<{ url: string; token: string }> {
  const child = spawn(
    process.execPath,
    [join(outDir, 'i-bridge.js'), '--port', '0', '--root', s.project, '--manifest', s.manifest, '--no-settings'],
    { cwd: s.project, env: s.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      const info = JSON.parse(readFileSync(join(s.env.I_RUNTIME_DIR!, 'bridge.json'), 'utf8')) as {
        url: string;
        token: string;
        pid: number;
      };
      if (info.pid === child.pid) return info;
    } catch {
      // not written yet
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`i-bridge did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function bridgeWorkspaceId(bridge: { url: string; token: string }, workspace: string): Promise<string> {
  const res = await fetch(`${bridge.url}/v1/tools/call`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'workspace_info', arguments: {}, workspace }),
  });
  const body = (await res.json()) as { output?: string; error?: unknown };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return (JSON.parse(body.output!) as { workspace_id: string }).workspace_id;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('one workspace id for a folder, from i-bridge and from i', () => {
  it('i reads the UUID the bridge bound first', async () => {
    const s = setup();
    const fromBridge = await bridgeWorkspaceId(await startBridge(s), s.project);
    expect(fromBridge).toMatch(UUID);
    expect(await iPathsId(s)).toBe(fromBridge);
  }, 60_000);

  it('the bridge reads the UUID i bound first, and both leave one entry in the registry', async () => {
    const s = setup();
    const fromI = await iPathsId(s);
    expect(fromI).toMatch(UUID);
    expect(await bridgeWorkspaceId(await startBridge(s), s.project)).toBe(fromI);
    const registry = JSON.parse(readFileSync(join(s.env.I_DATA_DIR!, 'workspaces.json'), 'utf8')) as {
      workspaces: Record<string, string>;
    };
    expect(Object.values(registry.workspaces)).toEqual([fromI]);
  }, 60_000);

  /** Runs `i` with a native workspace_info tool (private bridge) and returns the workspace_id its worker saw. */
  async function idSeenByNativeTool(s: Setup, extra: string[]): Promise<string | undefined> {
    const server: ModelServer = await startModelServer({
      script: [{ toolCalls: [{ name: 'workspace_info', arguments: {} }] }, { text: 'done' }],
    });
    cleanups.push(() => server.close());
    const model = join(s.base, 'model.json');
    writeFileSync(
      model,
      JSON.stringify({
        base_url: server.baseUrl('openai'),
        model: 'scripted',
        budget: { context_window: 128000 },
        plugins: s.manifest,
      }),
    );
    const r = await runNode(
      'i.js',
      ['-C', s.project, '--config', model, '--yolo', ...extra, '-p', 'which workspace?'],
      s.env,
      s.base,
    );
    expect(r.code, r.stderr).toBe(0);
    const toolMessage = (server.requests[1]!.body!.messages as Array<{ role: string; content: string }>).find(
      (m) => m.role === 'tool',
    )!;
    return /"workspace_id":"([0-9a-f-]{36})"/.exec(toolMessage.content)?.[1];
  }

  it('the private bridge of a run with native tools hands its workers the same UUID as `i paths`', async () => {
    const s = setup();
    const seen = await idSeenByNativeTool(s, []);
    expect(seen).toMatch(UUID);
    expect(await iPathsId(s)).toBe(seen);
  }, 60_000);

  it("with --workspace-id, the private bridge's workers see that id too", async () => {
    const s = setup();
    expect(await idSeenByNativeTool(s, ['--workspace-id', '0F0E0D0C-0B0A-4908-8706-050403020100'])).toBe(
      '0f0e0d0c-0b0a-4908-8706-050403020100',
    );
  }, 60_000);
});
