// npm run bench: "Download as .zip" of 1,000 files (10 folders × 100 source files of ~3 KB) in Chromium, where
// the feature runs: through the File System Access WorkspaceFs of a private (OPFS) workspace into a file's writable
// stream (what the save picker hands over), against reading the same files through the same WorkspaceFs, 16 in
// flight, and nothing else. Target ≤ 2: deflating and writing the archive may cost as much again as the reads.
// The page code is bundled with esbuild and served from 127.0.0.1 (a secure context, so OPFS is there).
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, it } from 'vitest';
import { fmt, report } from '../scripts/bench-kit';
import { freePort, launchBrowser, type AppBrowser } from './harness';

let server: Server;
let browser: AppBrowser;
let url = '';

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [resolve(import.meta.dirname, 'bench-pages/zip-download-page.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  const script = bundle.outputFiles[0]!.text;
  const html = '<!doctype html><meta charset="utf-8"><title>zip bench</title><script type="module" src="/page.js"></script>';
  server = createServer((request, response) => {
    const js = request.url === '/page.js';
    response.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html' });
    response.end(js ? script : html);
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

it('zip download of 1,000 OPFS files in Chromium vs reading them', async () => {
  const { page } = browser;
  await page.goto(url);
  await page.waitForFunction(() => 'zipBench' in globalThis);
  type Bench = { setup(): Promise<number>; compareZip(runs: number): Promise<{ zipMs: number; readMs: number; memoryMs: number; files: number; zipBytes: number }> };
  const files = await page.evaluate(() => (globalThis as unknown as { zipBench: Bench }).zipBench.setup());
  if (files !== 1000) throw new Error(`tree has ${files} files`);
  const r = await page.evaluate(() => (globalThis as unknown as { zipBench: Bench }).zipBench.compareZip(7));
  if (r.files !== 1000 || r.zipBytes < 10_000) throw new Error(`unexpected download: ${JSON.stringify(r)}`);
  report('zip download of 1,000 files in Chromium over OPFS', `writeWorkspaceZip ${fmt(r.zipMs)} (${r.zipBytes} bytes; ${fmt(r.memoryMs)} into a sink that drops them) vs read them through WorkspaceFs ${fmt(r.readMs)}`, r.zipMs / r.readMs, 2);
}, 600_000);
