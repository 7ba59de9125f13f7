// Modules bound to workers in bindings.json (seed 000 §1) run on those workers through headless i's private
// i-bridge: the bound module's tools keep their public schema and answer from the worker, its hooks run there, and a
// failing worker is the module's failure — the built-in module never stands in. Real processes: the CLI and i-bridge
// bundled side by side, the scripted model server, a fixture worker.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startModelServer,
  type ModelServer,
  type RecordedRequest,
  type ScriptTurn,
} from '../../../../e2e/model-server';

const repo = resolve(__dirname, '../../../..');
const worker = join(__dirname, '__fixtures__', 'bound-module-worker.mjs');
const outDir = join(repo, 'dist', 'cli-test', `${process.pid}-bound`);
const roots: string[] = [];
let server: ModelServer | undefined;

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
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function runWith(bindings: Record<string, unknown>, script: ScriptTurn[], args: string[] = []) {
  server = await startModelServer({ script });
  const root = mkdtempSync(join(tmpdir(), 'i-bound-'));
  roots.push(root);
  for (const d of ['project', 'conf', 'data', 'home']) mkdirSync(join(root, d));
  writeFileSync(
    join(root, 'conf', 'model.json'),
    JSON.stringify({
      base_url: server.baseUrl('openai'),
      model: 'm',
      max_tokens: 256,
      budget: { context_window: 1_000_000 },
    }),
  );
  writeFileSync(join(root, 'conf', 'bindings.json'), JSON.stringify(bindings));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: join(root, 'home'),
    I_CONFIG_DIR: join(root, 'conf'),
    I_DATA_DIR: join(root, 'data'),
  };
  return new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
    requests: RecordedRequest[];
    data: string;
  }>((done) => {
    const child = spawn(
      process.execPath,
      [
        join(outDir, 'i.js'),
        '-C',
        join(root, 'project'),
        '--config',
        join(root, 'conf', 'model.json'),
        '-p',
        'go',
        ...args,
      ],
      { env },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr, requests: server!.requests, data: join(root, 'data') }));
  });
}

const toolNames = (r: RecordedRequest) =>
  ((r.body as { tools?: Array<{ function: { name: string; description: string } }> }).tools ?? []).map(
    (t) => t.function,
  );
const toolMessages = (r: RecordedRequest) =>
  (r.body as { messages: Array<{ role: string; content: string }> }).messages
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
const memoryGet: ScriptTurn[] = [{ toolCalls: [{ name: 'memory_get', arguments: {} }] }, { text: 'done' }];

describe('bindings.json in headless i', () => {
  it('a bound memory module answers memory_get from its worker, under the built-in public name', async () => {
    const r = await runWith({ memory: { exec: ['node', worker] } }, memoryGet, ['--yolo']);
    expect(r.stderr).not.toContain('does not run workers');
    expect(r.code).toBe(0);
    const offered = toolNames(r.requests[0]!).filter((t) => t.name.startsWith('memory_'));
    expect(offered.map((t) => t.name)).toEqual(['memory_get', 'memory_set']);
    expect(offered[0]!.description).toContain('(i-bridge)');
    expect(toolMessages(r.requests[1]!).join('\n')).toContain('WORKER:memory_get');
    // Nothing built in ran: no workspace has a memory file (cache statistics may be there).
    expect(
      readdirSync(r.data, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('memory.json')),
    ).toEqual([]);
  }, 60_000);

  it('a failing bound tool worker is the tool result; the built-in memory never answers instead', async () => {
    const r = await runWith({ memory: { exec: ['node', worker, '--fail'] } }, memoryGet, ['--yolo']);
    const [result] = toolMessages(r.requests[1]!);
    expect(result).toContain('bound worker says no (memory_get)');
    expect(result).not.toMatch(/no memory entries|^\(empty\)/i);
  }, 60_000);

  it("a failing bound hook module (budget) stops the turn with the worker's error before any request", async () => {
    const r = await runWith({ budget: { exec: ['node', worker, '--fail'] } }, [{ text: 'never' }]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bound worker says no (context_budget)');
    expect(r.requests).toHaveLength(0);
  }, 60_000);

  it('refuses a binding of web or search with E_BINDING_UNSUPPORTED (exit 2)', async () => {
    const r = await runWith({ search: { exec: ['node', worker] } }, [{ text: 'never' }]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('E_BINDING_UNSUPPORTED');
    expect(r.requests).toHaveLength(0);
  }, 60_000);
});
