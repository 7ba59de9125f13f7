// The pool (seed 000 §2): one worker per argv + canonical cwd + workspace (a worker's workspace is fixed for its
// life), started on first use, calls queued so only one is ever in flight per worker. A failed call evicts its
// worker; calls still waiting in the queue were never sent, so they start a fresh worker (that is not a replay).
// The 15 s budget covers the queue too: a call that waited that long without reaching its worker fails with
// E_WORKER_QUEUE_TIMEOUT and is never sent.
import { BridgeError } from './errors';
import { CALL_TIMEOUT_MS, DEFAULT_IO_LIMIT_BYTES, KILL_GRACE_MS, MAX_FRAME_BYTES } from './limits';
import type { PathContext, WorkerRequest } from './protocol';
import { workerEnv } from './worker-env';
import { WorkerProcess, type WorkerOptions } from './worker-process';

/** Where the pool reports the process groups it starts and kills (see process-groups.ts). */
export interface GroupSink {
  add(pgid: number): void;
  remove(pgid: number): void;
}

export interface PoolOptions extends Partial<WorkerOptions> {
  dirs: PathContext;
  callTimeoutMs?: number;
  /** The environment the scrubbed worker env is taken from (tests pass their own). */
  sourceEnv?: NodeJS.ProcessEnv;
  groups?: GroupSink;
}

export interface WorkerTarget {
  argv: string[];
  cwd: string;
}

type Request = Omit<WorkerRequest, 'id'>;

interface Waiting {
  request: Request;
  resolve: (data: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

interface Slot {
  target: WorkerTarget;
  worker: WorkerProcess | undefined;
  busy: boolean;
  queue: Waiting[];
}

const closedError = () => new BridgeError('E_BRIDGE_CLOSED', 'The bridge is shutting down. Start it again.');
const closedInFlight = () =>
  new BridgeError(
    'E_BRIDGE_CLOSED',
    'The bridge shut down during the call and stopped the worker. The call may have had side effects and is not retried; start i-bridge again.',
  );

export class WorkerPool {
  private readonly slots = new Map<string, Slot>();
  /** argv + cwd → key prefix, computed once per manifest entry rather than per call. */
  private readonly targetKeys = new WeakMap<WorkerTarget, string>();
  private readonly live = new Set<WorkerProcess>();
  private readonly workerOptions: WorkerOptions;
  private readonly callTimeoutMs: number;
  private readonly env: Record<string, string>;
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
    this.env = workerEnv(options.dirs, options.sourceEnv);
  }

  /** Live worker processes (for status and tests). */
  get workers(): WorkerProcess[] {
    return [...this.live];
  }

  call(target: WorkerTarget, request: Request): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(closedError());
    let prefix = this.targetKeys.get(target);
    if (prefix === undefined) {
      prefix = JSON.stringify([target.argv, target.cwd]);
      this.targetKeys.set(target, prefix);
    }
    const key = `${prefix}\0${request.workspace}`;
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { target, worker: undefined, busy: false, queue: [] };
      this.slots.set(key, slot);
    }
    if (!slot.busy) return this.run(slot, request); // the common case: straight to the worker, no extra promise
    const s = slot;
    return new Promise((resolve, reject) => {
      const waiting: Waiting = {
        request,
        resolve,
        reject,
        timer: setTimeout(() => {
          const at = s.queue.indexOf(waiting);
          if (at !== -1) s.queue.splice(at, 1);
          reject(
            new BridgeError(
              'E_WORKER_QUEUE_TIMEOUT',
              `The call waited ${this.callTimeoutMs} ms for earlier calls to the same worker and was not sent. Try again, or make the earlier calls faster.`,
            ),
          );
        }, this.callTimeoutMs),
      };
      s.queue.push(waiting);
    });
  }

  private run(slot: Slot, request: Request): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(closedError());
    slot.busy = true;
    let call: Promise<Record<string, unknown>>;
    try {
      call = (slot.worker?.alive ? slot.worker : this.spawn(slot)).call(request, this.callTimeoutMs);
    } catch (error) {
      call = Promise.reject(
        error instanceof Error
          ? new BridgeError(
              'E_WORKER_SPAWN',
              `Could not start the worker ${slot.target.argv[0]} (${error.message}). Check the manifest's exec and cwd.`,
            )
          : error,
      );
    }
    const next = () => this.next(slot);
    call.then(next, next);
    return call;
  }

  private next(slot: Slot): void {
    slot.busy = false;
    const waiting = slot.queue.shift();
    if (!waiting) return;
    clearTimeout(waiting.timer);
    this.run(slot, waiting.request).then(waiting.resolve, waiting.reject);
  }

  private spawn(slot: Slot): WorkerProcess {
    const worker = new WorkerProcess(slot.target.argv, slot.target.cwd, this.env, this.workerOptions);
    this.spawned++;
    this.live.add(worker);
    const pgid = worker.pid;
    if (pgid !== undefined && process.platform !== 'win32') {
      this.options.groups?.add(pgid);
      worker.onKilled = () => this.options.groups?.remove(pgid);
    }
    worker.onGone = () => {
      this.live.delete(worker);
      if (slot.worker === worker) slot.worker = undefined;
    };
    slot.worker = worker;
    return worker;
  }

  /** Evicts every worker (SIGTERM, then SIGKILL after the grace period); queued calls fail unsent, calls in flight fail now. */
  close(): void {
    this.closed = true;
    for (const slot of this.slots.values()) {
      for (const waiting of slot.queue.splice(0)) {
        clearTimeout(waiting.timer);
        waiting.reject(closedError());
      }
    }
    for (const worker of [...this.live]) worker.evict(closedInFlight());
    this.slots.clear();
  }

  /** For process exit: SIGKILL every group synchronously. */
  killAllNow(): void {
    this.closed = true;
    for (const worker of this.live) worker.killNow();
    this.live.clear();
  }
}
