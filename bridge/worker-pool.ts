// The pool (seed 000 §2): one worker per argv + canonical cwd + workspace (a worker's workspace is fixed for its
// life), started on first use, calls queued so only one is ever in flight per worker. A failed call evicts its
// worker; calls still waiting in the queue were never sent, so they start a fresh worker (that is not a replay).
import { BridgeError } from './errors';
import { CALL_TIMEOUT_MS, DEFAULT_IO_LIMIT_BYTES, KILL_GRACE_MS, MAX_FRAME_BYTES } from './limits';
import type { PathContext, WorkerRequest } from './protocol';
import { workerEnv } from './worker-env';
import { WorkerProcess, type WorkerOptions } from './worker-process';

export interface PoolOptions extends Partial<WorkerOptions> {
  dirs: PathContext;
  callTimeoutMs?: number;
  /** The environment the scrubbed worker env is taken from (tests pass their own). */
  sourceEnv?: NodeJS.ProcessEnv;
}

export interface WorkerTarget {
  argv: string[];
  cwd: string;
}

interface Slot {
  worker: WorkerProcess | undefined;
  queue: Promise<unknown>;
}

export class WorkerPool {
  private readonly slots = new Map<string, Slot>();
  private readonly live = new Set<WorkerProcess>();
  private readonly workerOptions: WorkerOptions;
  private readonly callTimeoutMs: number;
  private closed = false;
  /** Counts spawns; tests use it to prove that refused requests started nothing. */
  spawned = 0;

  constructor(private readonly options: PoolOptions) {
    this.workerOptions = {
      maxFrameBytes: options.maxFrameBytes ?? MAX_FRAME_BYTES,
      ioLimitBytes: options.ioLimitBytes ?? DEFAULT_IO_LIMIT_BYTES,
      killGraceMs: options.killGraceMs ?? KILL_GRACE_MS,
    };
    this.callTimeoutMs = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
  }

  /** Live worker processes (for status and tests). */
  get workers(): WorkerProcess[] {
    return [...this.live];
  }

  call(target: WorkerTarget, request: Omit<WorkerRequest, 'id'>): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new BridgeError('E_BRIDGE_CLOSED', 'The bridge is shutting down. Start it again.'));
    const key = JSON.stringify([target.argv, target.cwd, request.workspace]);
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { worker: undefined, queue: Promise.resolve() };
      this.slots.set(key, slot);
    }
    const current = slot;
    const run = current.queue.then(() => this.runOne(current, target, request));
    current.queue = run.catch(() => undefined);
    return run;
  }

  private runOne(slot: Slot, target: WorkerTarget, request: Omit<WorkerRequest, 'id'>): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new BridgeError('E_BRIDGE_CLOSED', 'The bridge is shutting down. Start it again.'));
    if (!slot.worker || !slot.worker.alive) {
      const worker = new WorkerProcess(target.argv, target.cwd, workerEnv(this.options.dirs, this.options.sourceEnv), this.workerOptions);
      this.spawned++;
      this.live.add(worker);
      worker.onGone = () => {
        this.live.delete(worker);
        if (slot.worker === worker) slot.worker = undefined;
      };
      slot.worker = worker;
    }
    return slot.worker.call(request, this.callTimeoutMs);
  }

  /** Evicts every worker (SIGTERM, then SIGKILL after the grace period). */
  close(): void {
    this.closed = true;
    for (const worker of [...this.live]) worker.evict();
    this.slots.clear();
  }

  /** For process exit: SIGKILL every group synchronously. */
  killAllNow(): void {
    this.closed = true;
    for (const worker of this.live) worker.killNow();
    this.live.clear();
  }
}
