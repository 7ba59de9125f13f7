// npm run bench: a plugin host-call round trip with the plugin runtime's host side inside the agent Worker (plugin
// Workers nested in it, as the app runs now) vs on the page (as before the agent moved off the main thread), in
// Chromium, same plugin, interleaved runs. Target ≤ 1.2: the move may not make plugins noticeably slower.
import { it } from 'vitest';
import { hostCall, recorderWasm } from '../plugin-host/fixtures/wat/wat';
import { fmt, report } from '../scripts/bench-kit';
import { bundlePage, useBenchPage } from './harness/bench-page';

const CALLS = 128;
const bench = useBenchPage('host-call bench', 'bench-pages/host-call-page.ts', async () => ({
  '/driver.js': { type: 'text/javascript', body: await bundlePage('../plugin-host/runtime/driver-worker.ts') },
  '/plugin.wasm': {
    type: 'application/wasm',
    body: await recorderWasm(Array.from({ length: CALLS }, (_, i) => hostCall(i + 1, 'kv.get', { key: 'k' }))),
  },
}));

it('plugin host-call round trip with the host side in the agent Worker vs on the page', async () => {
  const { page } = bench.browser;
  await page.goto(bench.url);
  await page.waitForFunction(() => 'hostCallBench' in globalThis);
  type Bench = { compare(calls: number, runs: number): Promise<{ pageMs: number; workerMs: number }> };
  const r = await page.evaluate(
    ([calls]) => (globalThis as unknown as { hostCallBench: Bench }).hostCallBench.compare(calls, 11),
    [CALLS] as const,
  );
  report(
    'plugin host-call round trip through the agent Worker',
    `${fmt(r.workerMs)} per kv.get host call with the host side in a Worker (plugin Worker nested) vs ${fmt(r.pageMs)} with it on the page`,
    r.workerMs / r.pageMs,
    1.2,
  );
}, 300_000);
