// Worker start-up dominates a plugin invocation (tens of milliseconds, against ~1 ms to instantiate a small
// module). A spare pool starts the next worker ahead of time, so an invocation takes one that is already up. Each
// worker still serves exactly ONE invocation: a worker handed out is never taken back, and a replacement is started
// at once. Spares have run no plugin code; they hold only the driver waiting for its `init`.
//
// A spare costs a thread and its heap, so one that sits unused for SPARE_IDLE_MS is terminated (an idle tab holds no
// worker); the next invocation starts cold and the pool warms up again behind it. A spare that dies before it is
// taken (its script failed to load, the engine ran out of memory) is dropped rather than handed out: its error has
// already fired, so the invocation would never hear of it and would wait for its whole budget. It is not replaced
// until the next invocation, so a worker that cannot start is not restarted in a loop.
//
// Works wherever the factory does: on a page, or nested inside a dedicated worker (the agent's), since a browser
// factory is a plain `new Worker(new URL(…), {type: 'module'})`.

import type { WorkerFactory, WorkerHandle } from './worker-protocol';

/** How long an unused spare is kept (ms). Invocations within a turn come seconds apart; an idle tab gives it back. */
export const SPARE_IDLE_MS = 60_000;

export interface SpareWorkerOptions {
  /** Workers kept started ahead of time (default 1). */
  count?: number;
  /** Terminate the spares after this long without an invocation (default SPARE_IDLE_MS). */
  idleMs?: number;
  /** Timers, replaceable in tests. */
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export interface SpareWorkers {
  /** Use as `createWorker` of invokePlugin. */
  readonly factory: WorkerFactory;
  /** Spares started and not handed out yet. */
  readonly ready: number;
  /** Terminates the spares (call when the page or CLI shuts the runtime down). */
  dispose(): Promise<void>;
}

export function spareWorkers(create: WorkerFactory, options: SpareWorkerOptions = {}): SpareWorkers {
  const count = options.count ?? 1;
  const idleMs = options.idleMs ?? SPARE_IDLE_MS;
  const setTimer = options.setTimer ?? ((run, ms) => unrefTimer(setTimeout(run, ms)));
  const clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  const spares: WorkerHandle[] = [];
  let disposed = false;
  let timer: unknown;

  const drop = (w: WorkerHandle) => {
    const at = spares.indexOf(w);
    if (at < 0) return; // already handed out: its invocation hears the error itself
    spares.splice(at, 1);
    void w.terminate().catch(() => undefined);
  };
  const refill = () => {
    while (!disposed && spares.length < count) {
      const w = create();
      w.onError(() => drop(w));
      spares.push(w);
    }
  };
  const park = () => {
    timer = undefined;
    for (const w of spares.splice(0)) void w.terminate().catch(() => undefined);
  };
  const rearm = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = setTimer(park, idleMs);
  };

  refill();
  rearm();
  return {
    factory: () => {
      if (disposed) return create();
      const worker = spares.shift() ?? create();
      refill();
      rearm();
      return worker;
    },
    get ready() {
      return spares.length;
    },
    async dispose() {
      disposed = true;
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
      await Promise.all(spares.splice(0).map((w) => w.terminate()));
    },
  };
}

/** Node keeps a process alive for a pending timer; a spare's idle timer must not keep a CLI from exiting. */
function unrefTimer(timer: ReturnType<typeof setTimeout>): unknown {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
