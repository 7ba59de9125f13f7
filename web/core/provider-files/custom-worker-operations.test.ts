// A custom provider worker's extra operation through headless i and its private i-bridge (seed 003): with
// provider_operations the core sends the worker's upload (raw body, key attached by the core, once) and the worker's
// second prepare references the result; without it the turn fails naming the key and nothing is uploaded.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { headlessProject } from '../headless/cli-test-kit';

const worker = join(__dirname, '__fixtures__', 'upload-worker.mjs');
const repo = resolve(__dirname, '../../..');
const outDir = join(repo, 'dist', 'cli-test', `${process.pid}-provider-files`);

// The built i finds its private i-bridge beside it (as `npm run build:cli` lays them out).
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

function run(
  p: ReturnType<typeof headlessProject>,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [join(outDir, 'i.js'), '-C', p.dir, '--config', join(p.conf, 'model.json'), ...args],
      {
        cwd: p.dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: p.root,
          I_CONFIG_DIR: p.conf,
          I_DATA_DIR: join(p.root, 'data'),
          UP_KEY: 'up-secret',
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function service() {
  const seen: Array<{ path: string; key: string | undefined; type: string | undefined; body: string }> = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        path: req.url ?? '',
        key: req.headers['x-upload-key'] as string | undefined,
        type: req.headers['content-type'],
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(req.url === '/upload' ? { id: 'up-7' } : { text: 'generated' }));
    });
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server!.address() as { port: number }).port}`, seen };
}

describe("a custom provider worker's operation plan (headless i)", () => {
  it('runs the upload under provider_operations and prepares the model request with its result', async () => {
    const s = await service();
    const p = headlessProject({
      protocol: 'my-upload',
      base_url: s.url,
      model: 'm',
      api_key_env: 'UP_KEY',
      budget: { context_window: 1_000_000 },
      provider_operations: true,
      provider: { exec: [process.execPath, worker] },
    });
    const r = await run(p, ['-p', 'hi']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('generated');
    expect(s.seen.map((x) => x.path)).toEqual(['/upload', '/generate']);
    expect(s.seen[0]).toMatchObject({ key: 'up-secret', type: 'application/octet-stream', body: 'hello upload' });
    expect(JSON.parse(s.seen[1]!.body)).toEqual({ upload: 'up-7', state: { asked: 'upload' } });
    expect(s.seen[1]!.key).toBe('up-secret');
  }, 60_000);

  it('without provider_operations the plan is refused naming the key, and nothing is sent', async () => {
    const s = await service();
    const p = headlessProject({
      protocol: 'my-upload',
      base_url: s.url,
      model: 'm',
      budget: { context_window: 1_000_000 },
      provider: { exec: [process.execPath, worker] },
    });
    const r = await run(p, ['-p', 'hi']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_PROVIDER_OPERATIONS_OFF');
    expect(r.stderr).toContain('"provider_operations": true');
    expect(s.seen).toEqual([]);
  }, 60_000);
});
