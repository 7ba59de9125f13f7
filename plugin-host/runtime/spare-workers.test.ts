import { describe, expect, it } from 'vitest';
import { recorderWasm } from '../fixtures/wat/wat';
import { spareWorkers } from './spare-workers';
import { nodeWorkerFactory } from './node-worker';
import { pluginFrom, run } from './test-kit';
import type { WorkerHandle } from './worker-protocol';

/** Handles that only record what happens to them, and timers fired by hand. */
function fakes() {
  const created: Array<WorkerHandle & { terminated: boolean; fail: () => void }> = [];
  const factory = () => {
    const handlers: Array<(e: { code: string; message: string }) => void> = [];
    const w = {
      terminated: false,
      post: () => undefined,
      onMessage: () => undefined,
      onError: (h: (e: { code: string; message: string }) => void) => void handlers.push(h),
      terminate: async () => void (w.terminated = true),
      fail: () => handlers.forEach((h) => h({ code: 'E_RUN_WORKER', message: 'script failed to load' })),
    };
    created.push(w);
    return w;
  };
  const timers = new Map<number, () => void>();
  let ids = 0;
  const options = {
    idleMs: 60_000,
    setTimer: (fn: () => void) => (timers.set(++ids, fn), ids),
    clearTimer: (id: unknown) => void timers.delete(id as number),
  };
  const fire = () => [...timers.values()].forEach((fn) => fn());
  return { created, factory, options, fire, timers };
}

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
        const startedBefore = created.length;
        const result = await run(plugin, {
          createWorker: () => {
            const w = pool.factory();
            used.push(w);
            return w;
          },
        });
        expect(result).toMatchObject({ status: 'done', output: 'ok' });
        // The worker this invocation ran in had been started before it asked for one.
        expect(created.indexOf(used[i]!)).toBeLessThan(startedBefore);
      }
      expect(new Set(used).size).toBe(3);
      expect(created).toHaveLength(4);
      expect(used).toEqual(created.slice(0, 3));
    } finally {
      await pool.dispose();
    }
  });

  it('starts the next spare as soon as one is taken', () => {
    const { created, factory, options } = fakes();
    const pool = spareWorkers(factory, options);
    expect(created).toHaveLength(1);
    const first = pool.factory();
    expect(first).toBe(created[0]);
    expect(created).toHaveLength(2);
    expect(pool.ready).toBe(1);
    expect(pool.factory()).toBe(created[1]);
    expect(created).toHaveLength(3);
  });

  it('terminates an unused spare after the idle time, starts cold on the next invocation and warms up again', () => {
    const { created, factory, options, fire, timers } = fakes();
    const pool = spareWorkers(factory, options);
    pool.factory();
    expect(timers.size).toBe(1); // re-armed, not stacked
    fire();
    expect(pool.ready).toBe(0);
    expect(created[1]!.terminated).toBe(true);
    expect(created).toHaveLength(2); // nothing restarted while idle
    const cold = pool.factory();
    expect(cold).toBe(created[2]);
    expect(created[1]!.terminated).toBe(true);
    expect(pool.ready).toBe(1);
    expect(created[3]!.terminated).toBe(false);
  });

  it('never hands out a spare that died while waiting, and does not restart it in a loop', () => {
    const { created, factory, options } = fakes();
    const pool = spareWorkers(factory, options);
    created[0]!.fail();
    expect(created[0]!.terminated).toBe(true);
    expect(pool.ready).toBe(0);
    expect(created).toHaveLength(1);
    const w = pool.factory();
    expect(w).toBe(created[1]);
    // An error of a worker already handed out is its invocation's business, not the pool's.
    created[1]!.fail();
    expect(created[1]!.terminated).toBe(false);
    expect(pool.ready).toBe(1);
  });

  it('terminates its spares on dispose and starts none afterwards', async () => {
    const { created, factory, options, timers } = fakes();
    const pool = spareWorkers(factory, options);
    await pool.dispose();
    expect(created[0]!.terminated).toBe(true);
    expect(timers.size).toBe(0);
    pool.factory();
    expect(created).toHaveLength(2);
    expect(pool.ready).toBe(0);
  });
});
