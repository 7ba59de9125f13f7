// The kept zip Worker: the next download (or the one a dialog prepared) reuses it; one that failed while idle
// (its script did not load) is dropped instead of handed to a download that would never hear its error.
import { describe, expect, it } from 'vitest';
import type { ZipWorker } from './zip-off-thread';
import { leaseZipWorker } from './zip-worker-keeper';

function fakeWorkers() {
  const made: (ZipWorker & { terminated: boolean; fail(): void })[] = [];
  const spawn = (): ZipWorker => {
    const target = new EventTarget();
    const worker = {
      terminated: false,
      postMessage: () => undefined,
      addEventListener: (type: string, listener: (e: MessageEvent) => void) =>
        target.addEventListener(type, listener as EventListener),
      removeEventListener: (type: string, listener: (e: MessageEvent) => void) =>
        target.removeEventListener(type, listener as EventListener),
      terminate: () => void (worker.terminated = true),
      fail: () => target.dispatchEvent(new Event('error')),
    };
    made.push(worker);
    return worker;
  };
  return { spawn, made };
}

describe('the kept zip Worker', () => {
  it('hands the kept Worker to the next lease from the same spawn, and a new one after a failed download', () => {
    const { spawn, made } = fakeWorkers();
    leaseZipWorker(spawn).release(true);
    const again = leaseZipWorker(spawn);
    expect(again.worker).toBe(made[0]);
    again.release(false);
    expect(made[0]?.terminated).toBe(true);
    leaseZipWorker(spawn).release(false);
    expect(made).toHaveLength(2);
  });

  it('drops a kept Worker that fails while idle, so the next lease starts a new one', () => {
    const { spawn, made } = fakeWorkers();
    leaseZipWorker(spawn).release(true);
    made[0]?.fail();
    expect(made[0]?.terminated).toBe(true);
    const next = leaseZipWorker(spawn);
    expect(next.worker).toBe(made[1]);
    next.release(false);
  });

  it('does not drop a leased Worker on its errors: the download listening to it reports them', () => {
    const { spawn, made } = fakeWorkers();
    leaseZipWorker(spawn).release(true);
    const lease = leaseZipWorker(spawn);
    made[0]?.fail();
    expect(made[0]?.terminated).toBe(false);
    lease.release(false);
  });
});
