// npm run bench: what checkpoints add to the write path in the app itself (Chromium, a private OPFS workspace
// through the File System Access WorkspaceFs, the IndexedDB checkpoint store the agent Worker uses): a 1 MiB file
// and 100 small files, recorded vs plain (target ≤ 1.3), the same through the built-in write tool, and a revert of
// 100 files vs writing them (target ≤ 1.5).
// web/core/checkpoints/checkpoints.bench.ts measures the same on the headless host (Node fs, session folder).
import { it } from 'vitest';
import { fmt, report } from '../scripts/bench-kit';
import { useBenchPage } from './harness/bench-page';

const bench = useBenchPage('checkpoints bench', 'bench-pages/checkpoints-page.ts');
type Result = { plainMs: number; recordedMs: number };
type Bench = Record<'bigFile' | 'smallFiles' | 'revert' | 'writeToolFiles', (runs: number) => Promise<Result>>;

it('checkpoints in the app: the write path recorded vs plain, and a revert vs writing', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'checkpointsBench' in globalThis);
  const run = (name: keyof Bench, runs: number) => page.evaluate(([n, r]) => (globalThis as unknown as { checkpointsBench: Bench }).checkpointsBench[n](r), [name, runs] as const);
  const big = await run('bigFile', 15);
  report('checkpoints in the app (OPFS + IndexedDB): write a 1 MiB file', `with checkpoints ${fmt(big.recordedMs)} vs plain ${fmt(big.plainMs)}`, big.recordedMs / big.plainMs, 1.3);
  const small = await run('smallFiles', 9);
  report('checkpoints in the app (OPFS + IndexedDB): write 100 small files', `with checkpoints ${fmt(small.recordedMs)} vs plain ${fmt(small.plainMs)}`, small.recordedMs / small.plainMs, 1.3);
  const tool = await run('writeToolFiles', 9);
  report('checkpoints in the app (OPFS + IndexedDB): the write tool, 100 small files', `with checkpoints ${fmt(tool.recordedMs)} vs plain ${fmt(tool.plainMs)}`, tool.recordedMs / tool.plainMs, 1.3);
  const rev = await run('revert', 9);
  report('checkpoints in the app (OPFS + IndexedDB): revert 100 files', `revert ${fmt(rev.recordedMs)} vs write 100 files ${fmt(rev.plainMs)}`, rev.recordedMs / rev.plainMs, 1.5);
}, 600_000);
