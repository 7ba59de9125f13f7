// The page ↔ worker protocol: a tiny discriminated union, every message tagged with its invocation id so that
// stale messages (from a terminated or earlier invocation) are ignored. One invocation per worker, one step in
// flight. The worker is a dumb ABI pump: it moves frames across wasm memory and checks bounds, sizes and UTF-8;
// the page parses the JSON, judges what the frames mean (mediator.ts) and performs host calls.

import { isErrorData, type ErrorData } from '../errors';

/** Page → worker. */
export type ToWorker =
  | {
      type: 'init';
      invocationId: string;
      /** A compiled module (cached per sha256 on the page side) or the raw bytes to compile in the worker. */
      module?: WebAssembly.Module;
      bytes?: Uint8Array;
      /** The start frame, already serialised: `{"type":"start","request":{...}}`. */
      start: string;
      limits: { maxFrameBytes: number };
    }
  | {
      type: 'resume';
      invocationId: string;
      /** The resume frame, already serialised: `{"type":"resume","response":{...}}`. */
      frame: string;
    };

/** Worker → page. */
export type FromWorker =
  /** One frame the plugin returned from `harness_step`: bounds-checked, size-checked, strict UTF-8; not yet parsed. */
  | { type: 'frame'; invocationId: string; text: string; bytes: number }
  /** The worker gave up: trap, bad pointer, bad UTF-8/JSON, missing exports, wrong ABI version. */
  | {
      type: 'abort';
      invocationId: string;
      error: ErrorData;
      /**
       * Untrusted text that completes `error.message` (an engine message, a name from the module), possibly
       * megabytes long: the page appends only a bounded quote of it (quoteUntrusted), never the text itself.
       */
      detail?: string;
    };

/** What the driver inside the worker needs from its environment (browser `self` or Node `parentPort`). */
export interface DriverEndpoint {
  post(message: FromWorker): void;
  onMessage(handler: (message: unknown) => void): void;
}

/** What the page needs from a worker (browser `Worker` or Node `worker_threads.Worker`). */
export interface WorkerHandle {
  post(message: ToWorker): void;
  onMessage(handler: (message: unknown) => void): void;
  /** Fires when the worker dies on its own (uncaught error, out of memory). */
  onError(handler: (error: ErrorData) => void): void;
  /** Stops the worker; resolves once it is gone. */
  terminate(): Promise<void>;
}

export type WorkerFactory = () => WorkerHandle;

export function isFromWorker(value: unknown, invocationId: string): value is FromWorker {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (m.invocationId !== invocationId) return false;
  return (
    (m.type === 'frame' && typeof m.text === 'string') ||
    (m.type === 'abort' && isErrorData(m.error) && (m.detail === undefined || typeof m.detail === 'string'))
  );
}
