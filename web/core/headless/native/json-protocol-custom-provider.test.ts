// tool_protocol "json" with a custom provider worker (headless `i`, private i-bridge, the my-service fixture worker):
// the worker is handed no tools, the model's JSON tool_call of `read` runs, and the worker's next history carries
// the file's content in the untrusted envelope as a user message.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(__dirname, '../../../..');
const worker = join(__dirname, '__fixtures__', 'my-service-worker.mjs');
const outDir = join(repo, 'dist', 'cli-test', `${process.pid}-json-custom`);
const roots: string[] = [];

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

interface Body {
  messages: Array<{ role: string; content: unknown }>;
  tools: string[];
}
let server: Server | undefined;
afterEach(() => {
  server?.close();
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

describe('tool_protocol "json" through a custom provider worker', () => {
  it('hands the worker no tools, runs the JSON read and sends its result back in the envelope', async () => {
    const seen: Body[] = [];
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as Body;
        seen.push(body);
        const reply =
          seen.length === 1
            ? '{"type": "tool_call", "name": "read", "arguments": {"path": "a.txt"}}'
            : '{"type": "final", "content": "custom says 42"}';
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ reply: { text: reply }, done: 'stop' }));
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const root = mkdtempSync(join(tmpdir(), 'i-json-custom-'));
    roots.push(root);
    const dir = join(root, 'project');
    mkdirSync(dir);
    mkdirSync(join(root, 'conf'));
    writeFileSync(join(dir, 'a.txt'), 'the answer is 42\n');
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(
      join(root, 'conf', 'model.json'),
      JSON.stringify({
        protocol: 'my-service',
        base_url: baseUrl,
        model: 'm1',
        budget: { context_window: 1_000_000 },
        tool_protocol: 'json',
        provider: { exec: ['node', worker] },
      }),
    );
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(
        process.execPath,
        [join(outDir, 'i.js'), '-C', dir, '--config', join(root, 'conf', 'model.json'), '-p', 'What does a.txt say?'],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: root,
            I_CONFIG_DIR: join(root, 'conf'),
            I_DATA_DIR: join(root, 'data'),
          },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
    expect(r.stderr).not.toMatch(/error E_/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('custom says 42');
    expect(seen.map((b) => b.tools)).toEqual([[], []]);
    const last = seen[1]!.messages.at(-1)!;
    expect(last.role).toBe('user');
    expect(JSON.parse(String(last.content))).toMatchObject({
      jingwei_tool_result: { name: 'read', ok: true, output: expect.stringContaining('the answer is 42') },
      untrusted_tool_data: true,
    });
  }, 60_000);
});
