// Test fixture (spare-in-worker.browser.test.ts): a dedicated module worker standing in for the agent's worker,
// which runs two plugin invocations through a spare pool of nested plugin workers and reports which worker each
// invocation ran in.
import { browserWorkerFactory } from './browser-worker';
import { invokePlugin, type RuntimePlugin } from './invoke';
import { MemoryKvStore } from './kv-store';
import { spareWorkers } from './spare-workers';
import type { WorkerHandle } from './worker-protocol';

self.onmessage = async (event: MessageEvent<{ plugin: RuntimePlugin; runs: number }>) => {
  const { plugin, runs } = event.data;
  const created: WorkerHandle[] = [];
  const pool = spareWorkers(() => {
    const w = browserWorkerFactory();
    created.push(w);
    return w;
  });
  const used: WorkerHandle[] = [];
  const results: Array<{ status: string; output?: string; startedBefore: boolean }> = [];
  for (let i = 0; i < runs; i++) {
    const before = created.length;
    const r = await invokePlugin({
      plugin,
      tool: 'run',
      arguments: {},
      workspaceId: 'ws',
      fs: null,
      kv: new MemoryKvStore(),
      approval: { mode: 'auto' },
      timeoutMs: 10_000,
      createWorker: () => {
        const w = pool.factory();
        used.push(w);
        return w;
      },
    });
    results.push({
      status: r.status,
      ...(r.status === 'done' ? { output: r.output } : {}),
      startedBefore: created.indexOf(used[i]!) < before,
    });
  }
  self.postMessage({ results, distinct: new Set(used).size, created: created.length, spares: pool.ready });
  await pool.dispose();
};
