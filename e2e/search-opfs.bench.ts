// npm run bench: the `search` tool in Chromium over a private (OPFS) workspace, in a dedicated Worker as the agent
// runs it, on the same generated 10,000-file tree as web/core/tools/builtin/search.bench.ts, against a plain
// concurrent read of the tree with the raw OPFS API (list every folder, getFile().text() with the same number of
// reads in flight). Target ≤ 1.5: the path policy, walk rules and matching may cost half again the bare reads.
// Two more lines compare reads of large files (1 and 2 MiB; private workspaces read those through synchronous
// access handles in the Worker) with reads through getFile(), as smaller files are read. The page and Worker code are bundled with esbuild and served from 127.0.0.1 (a
// secure context, so OPFS is there); Chromium is Debian's, as for the e2e specs.
import { it } from 'vitest';
import { report, fmt } from '../scripts/bench-kit';
import { bundlePage, useBenchPage } from './harness/bench-page';
import type { SearchFigures } from './bench-pages/search-opfs-worker';

const bench = useBenchPage('search bench', 'bench-pages/search-opfs-page.ts', async () => ({
  '/worker.js': { type: 'text/javascript', body: await bundlePage('bench-pages/search-opfs-worker.ts') },
}));

it('search over 10,000 OPFS files in Chromium vs a plain concurrent OPFS read of them', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'searchBench' in globalThis);
  type Bench = {
    setup(): Promise<number>;
    compareSearch(args: Record<string, unknown>, runs: number): Promise<SearchFigures>;
    compareLargeReads(size: number, count: number, runs: number): Promise<{ syncMs: number; getFileMs: number }>;
  };
  const files = await page.evaluate(() => (globalThis as unknown as { searchBench: Bench }).searchBench.setup());
  if (files !== 10_000) throw new Error(`tree has ${files} files`);
  for (const [name, args] of [
    ['literal', { pattern: 'needle_not_present' }],
    ['regex', { pattern: 'handler\\d+_99\\b', regex: true }],
  ] as const) {
    const r = await page.evaluate(
      ([a]) => (globalThis as unknown as { searchBench: Bench }).searchBench.compareSearch(a, 3),
      [args] as const,
    );
    if (!r.output.startsWith('No matches') || r.output.includes('stopped'))
      throw new Error(`unexpected search output: ${JSON.stringify(r)}`);
    report(
      `search ${name} in a Worker over OPFS, 10k files`,
      `search ${fmt(r.searchMs)} vs plain concurrent OPFS read ${fmt(r.plainMs)}`,
      r.searchMs / r.plainMs,
      1.5,
    );
  }
  for (const [size, count] of [
    [1024 * 1024, 40],
    [2 * 1024 * 1024, 20],
  ] as const) {
    const r = await page.evaluate(
      ([s, c]) => (globalThis as unknown as { searchBench: Bench }).searchBench.compareLargeReads(s, c, 5),
      [size, count] as const,
    );
    report(
      `${count} reads of ${size / 1024} KiB in a Worker over OPFS, sync access handles vs getFile()`,
      `${fmt(r.syncMs)} vs ${fmt(r.getFileMs)}`,
      r.syncMs / r.getFileMs,
      1,
    );
  }
}, 900_000); // a side takes 10–25 s on the 2-core machine under load, and each runs four times per pattern
