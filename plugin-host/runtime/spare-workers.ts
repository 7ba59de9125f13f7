// Worker start-up dominates a plugin invocation (tens of milliseconds, against ~1 ms to instantiate a small
// module). A spare pool starts the next worker ahead of time, so an invocation takes one that is already up. Each
// worker still serves exactly ONE invocation: a worker handed out is never taken back, and a replacement is started
// at once. Spares have run no plugin code; they hold only the driver waiting for its `init`.

import type { WorkerFactory, WorkerHandle } from './worker-protocol';

export interface SpareWorkers {
  /** Use as `createWorker` of invokePlugin. */
  readonly factory: WorkerFactory;
  /** Terminates the spares (call when the page or CLI shuts the runtime down). */
  dispose(): Promise<void>;
}

export function spareWorkers(create: WorkerFactory, count = 1): SpareWorkers {
  const spares: WorkerHandle[] = [];
  let disposed = false;
  const refill = () => {
    while (!disposed && spares.length < count) spares.push(create());
  };
  refill();
  return {
    factory: () => {
      if (disposed) return create();
      const worker = spares.shift() ?? create();
      refill();
      return worker;
    },
    async dispose() {
      disposed = true;
      await Promise.all(spares.splice(0).map((w) => w.terminate()));
    },
  };
}
