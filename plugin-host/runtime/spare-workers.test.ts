import { describe, expect, it } from 'vitest';
import { recorderWasm } from '../fixtures/wat/wat';
import { spareWorkers } from './spare-workers';
import { nodeWorkerFactory } from './node-worker';
import { pluginFrom, run } from './test-kit';
import type { WorkerHandle } from './worker-protocol';

describe('spareWorkers', () => {
  it('hands each invocation a fresh worker that is never reused, and keeps one spare started', async () => {
    const created: WorkerHandle[] = [];
    const real = nodeWorkerFactory();
    const pool = spareWorkers(() => {
      const w = real();
      created.push(w);
      return w;
    });
    try {
      expect(created).toHaveLength(1);
      const plugin = await pluginFrom(await recorderWasm([{ type: 'done', output: 'ok' }]));
      const used: WorkerHandle[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await run(plugin, {
          createWorker: () => {
            const w = pool.factory();
            used.push(w);
            return w;
          },
        });
        expect(result).toMatchObject({ status: 'done', output: 'ok' });
      }
      expect(new Set(used).size).toBe(3);
      expect(created).toHaveLength(4);
      expect(used).toEqual(created.slice(0, 3));
    } finally {
      await pool.dispose();
    }
  });
});
