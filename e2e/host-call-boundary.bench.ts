// npm run bench: a plugin host-call round trip with the plugin runtime's host side inside the agent Worker (plugin
// Workers nested in it, as the app runs now) vs on the page (as before the agent moved off the main thread), in
// Chromium, same plugin, interleaved runs. Target ≤ 1.2: the move may not make plugins noticeably slower.
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, it } from 'vitest';
import { hostCall, recorderWasm } from '../plugin-host/fixtures/wat/wat';
import { fmt, report } from '../scripts/bench-kit';
import { freePort, launchBrowser, type AppBrowser } from './harness';

const CALLS = 128;
let server: Server;
let browser: AppBrowser;
let url = '';

const bundle = async (entry: string) =>
  (await build({ entryPoints: [resolve(import.meta.dirname, entry)], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'error' })).outputFiles[0]!.text;

beforeAll(async () => {
  const files: Record<string, { type: string; body: string | Uint8Array }> = {
    '/': { type: 'text/html', body: '<!doctype html><meta charset="utf-8"><title>host-call bench</title><script type="module" src="/page.js"></script>' },
    '/page.js': { type: 'text/javascript', body: await bundle('bench-pages/host-call-page.ts') },
    '/driver.js': { type: 'text/javascript', body: await bundle('../plugin-host/runtime/driver-worker.ts') },
    '/plugin.wasm': { type: 'application/wasm', body: await recorderWasm(Array.from({ length: CALLS }, (_, i) => hostCall(i + 1, 'kv.get', { key: 'k' }))) },
  };
  server = createServer((request, response) => {
    const file = files[request.url ?? '/'] ?? files['/']!;
    response.writeHead(200, { 'content-type': file.type });
    response.end(file.body);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  url = `http://127.0.0.1:${port}/`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.dispose();
  await new Promise((done) => server?.close(done));
});

it('plugin host-call round trip with the host side in the agent Worker vs on the page', async () => {
  const { page } = browser;
  await page.goto(url);
  await page.waitForFunction(() => 'hostCallBench' in globalThis);
  type Bench = { compare(calls: number, runs: number): Promise<{ pageMs: number; workerMs: number }> };
  const r = await page.evaluate(([calls]) => (globalThis as unknown as { hostCallBench: Bench }).hostCallBench.compare(calls, 11), [CALLS] as const);
  report('plugin host-call round trip through the agent Worker', `${fmt(r.workerMs)} per kv.get host call with the host side in a Worker (plugin Worker nested) vs ${fmt(r.pageMs)} with it on the page`, r.workerMs / r.pageMs, 1.2);
}, 300_000);
