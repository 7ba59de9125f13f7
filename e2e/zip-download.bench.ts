// npm run bench: "Download as .zip" of 1,000 files (10 folders × 100 source files of ~3 KB) in Chromium, where
// the feature runs: through the File System Access WorkspaceFs of a private (OPFS) workspace into a file's writable
// stream (what the save picker hands over), against reading the same files through the same WorkspaceFs, 16 in
// flight, and nothing else. Target ≤ 2: deflating and writing the archive may cost as much again as the reads.
// The page code is bundled with esbuild and served from 127.0.0.1 (a secure context, so OPFS is there), the zip
// Worker as /zip-worker.js; the same download zipped on the page's thread is printed for comparison.
import { it } from 'vitest';
import { fmt, report } from '../scripts/bench-kit';
import { bundlePage, useBenchPage } from './harness/bench-page';

const bench = useBenchPage('zip bench', 'bench-pages/zip-download-page.ts', async () => ({
  '/zip-worker.js': { type: 'text/javascript', body: await bundlePage('../web/core/archive/zip-worker.ts') },
}));

it('zip download of 1,000 OPFS files in Chromium vs reading them', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'zipBench' in globalThis);
  type Bench = {
    setup(): Promise<number>;
    compareZip(runs: number): Promise<{
      zipMs: number;
      readMs: number;
      memoryMs: number;
      inThreadMs: number;
      files: number;
      zipBytes: number;
    }>;
  };
  const files = await page.evaluate(() => (globalThis as unknown as { zipBench: Bench }).zipBench.setup());
  if (files !== 1000) throw new Error(`tree has ${files} files`);
  const r = await page.evaluate(() => (globalThis as unknown as { zipBench: Bench }).zipBench.compareZip(7));
  if (r.files !== 1000 || r.zipBytes < 10_000) throw new Error(`unexpected download: ${JSON.stringify(r)}`);
  report(
    'zip download of 1,000 files in Chromium over OPFS',
    `writeWorkspaceZip ${fmt(r.zipMs)} (${r.zipBytes} bytes; ${fmt(r.memoryMs)} into a sink that drops them; ${fmt(r.inThreadMs)} zipped on the page's thread) vs read them through WorkspaceFs ${fmt(r.readMs)}`,
    r.zipMs / r.readMs,
    2,
  );
}, 600_000);
