// Once the agent runs in a dedicated worker, plugin workers are nested workers started from it. The spare pool
// works there as on a page: every invocation runs in a worker started before it asked, never in a used one.
import { expect, it } from 'vitest';
import { sha256Hex } from '../package';
import { recorderWasm } from '../fixtures/wat/wat';

it('runs invocations in pre-started nested workers inside a dedicated worker, one fresh worker each', async () => {
  const wasm = await recorderWasm([{ type: 'done', output: 'ok' }]);
  const plugin = {
    id: 'test.recorder',
    version: '1.0.0',
    sha256: await sha256Hex(wasm),
    permissions: { workspace: 'none', storage: false },
    tools: [{ name: 'run' }],
    wasm,
  };
  const host = new Worker(new URL('./spare-in-worker.fixture.ts', import.meta.url), { type: 'module' });
  try {
    const report = await new Promise<{
      results: Array<{ status: string; output?: string; startedBefore: boolean }>;
      distinct: number;
      created: number;
      spares: number;
    }>((resolve, reject) => {
      host.onmessage = (e) => resolve(e.data);
      host.onerror = (e) => reject(new Error(e.message || 'the host worker failed'));
      host.postMessage({ plugin, runs: 3 });
    });
    expect(report.results).toEqual(
      Array.from({ length: 3 }, () => ({ status: 'done', output: 'ok', startedBefore: true })),
    );
    expect(report.distinct).toBe(3);
    expect(report.created).toBe(4);
    expect(report.spares).toBe(1);
  } finally {
    host.terminate();
  }
});
