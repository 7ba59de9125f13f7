// Validation of an imported .hplugin.zip off the page's main thread. The validator's walk over a 10 MiB package is
// synchronous work (inflate, WebAssembly structure, names) that a hostile package can make long; on the main
// thread it would freeze the page. Each import gets a fresh module Worker that is terminated as soon as it answers:
// imports are rare and human-paced, so a worker start (a few ms) costs nothing visible, while terminating frees
// the validator's transient buffers at once and stops a validation that outlives its deadline. A kept-alive
// worker would hold that memory for the whole session and need its own recovery after a deadline.
// Node (tests, `hplugin`, headless `i`) has no page to freeze and keeps calling validatePackage in-process.
import { HarnessError, validatePackage, type ValidatedPackage } from '../../../plugin-host';
import { VALIDATE_WORKER_CODE, workerFailure, type ValidateReply, type ValidateRequest } from './validate-protocol';

/** The part of a Worker the client uses; a real module Worker or a test double. */
export interface ValidateWorker {
  postMessage(message: ValidateRequest, transfer: Transferable[]): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (e: Event) => void): void;
  terminate(): void;
}

export interface ValidateOffThreadOptions {
  /** Defaults to the bundled validate-worker.ts as a module Worker. */
  spawn?: () => ValidateWorker;
  /** Deadline for one validation; past it the worker is terminated. */
  timeoutMs?: number;
}

/** Far above what the bounded validator needs for a 10 MiB package on a slow phone; a last line, not a budget. */
export const VALIDATE_TIMEOUT_MS = 60_000;

const spawnModuleWorker = (): ValidateWorker =>
  new Worker(new URL('./validate-worker.ts', import.meta.url), { type: 'module', name: 'plugin-validate' });

/**
 * Validates `bytes` in a dedicated Worker and returns the validator's result, or throws its refusal as a HarnessError
 * with the same code. The bytes are transferred: afterwards `bytes` is empty (detached) on this side.
 */
export function validateOffThread(
  bytes: Uint8Array,
  { spawn = spawnModuleWorker, timeoutMs = VALIDATE_TIMEOUT_MS }: ValidateOffThreadOptions = {},
): Promise<ValidatedPackage> {
  return new Promise((resolve, reject) => {
    let worker: ValidateWorker;
    try {
      worker = spawn();
    } catch (error) {
      reject(
        new HarnessError(VALIDATE_WORKER_CODE, workerFailure(error instanceof Error ? error.message : String(error))),
      );
      return;
    }
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.terminate();
      outcome();
    };
    const fail = (detail: string, data?: Record<string, unknown>) =>
      finish(() => reject(new HarnessError(VALIDATE_WORKER_CODE, workerFailure(detail), data)));
    const timer = setTimeout(
      () => fail(`no answer within ${Math.round(timeoutMs / 1000)} s`, { timeoutMs }),
      timeoutMs,
    );
    worker.addEventListener('message', (e) => {
      const reply = (e as MessageEvent<ValidateReply>).data;
      finish(() =>
        reply.ok
          ? resolve(reply.pkg)
          : reject(new HarnessError(reply.error.code, reply.error.message, reply.error.data)),
      );
    });
    worker.addEventListener('error', (e) => fail((e as ErrorEvent).message || 'the worker failed to load or crashed'));
    worker.addEventListener('messageerror', () => fail('its answer could not be deserialised'));
    // A view of part of a buffer is copied first: transferring the whole buffer would take bytes that are not ours.
    const own =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer
        ? bytes
        : bytes.slice();
    try {
      worker.postMessage({ bytes: own }, [own.buffer as ArrayBuffer]);
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  });
}

/** The app's validator: off the main thread where there is a page (a Worker global), in-process elsewhere. */
export function defaultValidator(): (bytes: Uint8Array) => Promise<ValidatedPackage> {
  return typeof Worker === 'function' ? (bytes) => validateOffThread(bytes) : validatePackage;
}
