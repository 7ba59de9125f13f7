// npm run bench: what checkpoints add to the write path in the app itself (Chromium, a private OPFS workspace through
// the File System Access WorkspaceFs under the write policy and the IndexedDB checkpoint store, in a dedicated Worker
// as the agent runs). The target (≤ 1.3) is on the write path as the agent takes it: the built-in write tool, on a
// 1 MiB file and on 100 small files. A blind overwrite through the recorded fs (no read by the writer first: no
// built-in tool makes one) is printed beside, without a target: there the recorder must read the file itself, and an
// OPFS read costs about what the write does (CONTEXT.md of web/core/checkpoints). Revert 100 files vs writing: ≤ 1.5.
// web/core/checkpoints/checkpoints.bench.ts measures the same on the headless host (Node fs, session folder).
import { it } from 'vitest';
import { fmt, report } from '../scripts/bench-kit';
import { bundlePage, useBenchPage } from './harness/bench-page';

const bench = useBenchPage('checkpoints bench', 'bench-pages/checkpoints-page.ts', async () => ({
  '/worker.js': { type: 'text/javascript', body: await bundlePage('bench-pages/checkpoints-worker.ts') },
}));
type Result = { plainMs: number; recordedMs: number };
type Bench = Record<
  'bigFile' | 'smallFiles' | 'revert' | 'writeToolFiles' | 'writeToolBig',
  (runs: number) => Promise<Result>
>;

it('checkpoints in the app: the write path recorded vs plain, and a revert vs writing', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'checkpointsBench' in globalThis);
  const run = (name: keyof Bench, runs: number) =>
    page.evaluate(([n, r]) => (globalThis as unknown as { checkpointsBench: Bench }).checkpointsBench[n](r), [
      name,
      runs,
    ] as const);
  const line = (what: string, r: Result, target?: number) =>
    report(
      `checkpoints in the app (OPFS + IndexedDB): ${what}`,
      `with checkpoints ${fmt(r.recordedMs)} vs plain ${fmt(r.plainMs)}`,
      r.recordedMs / r.plainMs,
      target,
    );
  line('the write tool, a 1 MiB file', await run('writeToolBig', 9), 1.3);
  line('the write tool, 100 small files', await run('writeToolFiles', 9), 1.3);
  line('a blind overwrite of a 1 MiB file (no target)', await run('bigFile', 15));
  line('blind overwrites of 100 small files (no target)', await run('smallFiles', 9));
  const rev = await run('revert', 9);
  report(
    'checkpoints in the app (OPFS + IndexedDB): revert 100 files',
    `revert ${fmt(rev.recordedMs)} vs write 100 files ${fmt(rev.plainMs)}`,
    rev.recordedMs / rev.plainMs,
    1.5,
  );
}, 600_000);
