// The page side of the zip Worker: the same ZipAssembler as in-thread, but zip.js and deflate run on another
// thread. Reading files and zipping them then overlap on two cores instead of adding up on one (CONTEXT.md has the
// figures). A failed or cancelled download terminates its Worker (the one cancel that stops zip.js mid-entry and
// frees its buffers at once); after a clean one the Worker is kept a while for the next (zip-worker-keeper.ts).
import { HarnessError } from '../contracts';
import type { ZipAssembler } from './zip-assembler';
import { leaseZipWorker } from './zip-worker-keeper';
import type { ZipWorker } from './zip-worker-protocol';
export type { ZipWorker };
import { ZIP_WORKER_CODE, zipWorkerFailure, type ZipReply, type ZipRequest } from './zip-worker-protocol';

export interface OffThreadZip extends ZipAssembler {
  /** Terminates the Worker; whatever is pending rejects with `reason`. Idempotent. */
  dispose(reason: unknown): void;
}

type Waiter = { resolve: () => void; reject: (error: unknown) => void };

/** Takes a Worker (kept, or new from `spawn`); `write` gets the archive in order, one chunk at a time (the next waits for it). */
export function zipOffThread(
  spawn: () => ZipWorker,
  write: (chunk: Uint8Array<ArrayBuffer>) => Promise<void>,
): OffThreadZip {
  const failure = (detail: string) => new HarnessError(ZIP_WORKER_CODE, zipWorkerFailure(detail));
  let lease: ReturnType<typeof leaseZipWorker>;
  try {
    lease = leaseZipWorker(spawn);
  } catch (error) {
    throw failure(error instanceof Error ? error.message : String(error));
  }
  const { worker } = lease;
  const adds = new Map<number, Waiter>();
  let closing: Waiter | undefined;
  let ended: unknown;
  let nextId = 0;
  let writes: Promise<void> = Promise.resolve();

  const detach = (reusable: boolean) => {
    worker.removeEventListener('message', onMessage);
    worker.removeEventListener('error', onError as (e: MessageEvent<ZipReply>) => void);
    worker.removeEventListener('messageerror', onMessageError);
    lease.release(reusable);
  };
  const dispose = (reason: unknown) => {
    if (ended !== undefined) return;
    ended = reason;
    detach(false);
    for (const waiter of adds.values()) waiter.reject(reason);
    adds.clear();
    closing?.reject(reason);
  };
  const send = (message: ZipRequest, transfer: Transferable[] = []) => {
    if (ended !== undefined) throw ended;
    worker.postMessage(message, transfer);
  };
  const onMessage = (e: MessageEvent<ZipReply>) => {
    const reply = e.data;
    if (ended !== undefined) return;
    switch (reply.type) {
      case 'added':
        adds.get(reply.id)?.resolve();
        adds.delete(reply.id);
        break;
      case 'chunk':
        writes = writes
          .then(() => write(reply.bytes))
          .then(() => {
            if (ended === undefined) worker.postMessage({ type: 'written' }, []);
          });
        writes.catch(dispose);
        break;
      case 'closed':
        // Every chunk was posted before 'closed': resolve once the last one is written.
        writes.then(
          () => closing?.resolve(),
          () => undefined,
        );
        break;
      case 'failed':
        dispose(new HarnessError(reply.error.code, reply.error.message, reply.error.data));
        break;
    }
  };
  const onError = (e: Event) => dispose(failure((e as ErrorEvent).message || 'failed to load or crashed'));
  const onMessageError = () => dispose(failure('sent a message that could not be read'));
  worker.addEventListener('message', onMessage);
  worker.addEventListener('error', onError as (e: MessageEvent<ZipReply>) => void);
  worker.addEventListener('messageerror', onMessageError);

  return {
    add(name, data, level) {
      const id = nextId++;
      // A view of part of a buffer is copied: transferring the whole buffer would take bytes that are not ours.
      const own =
        data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer
          ? (data as Uint8Array<ArrayBuffer>)
          : (data.slice() as Uint8Array<ArrayBuffer>);
      return new Promise<void>((resolve, reject) => {
        adds.set(id, { resolve, reject });
        try {
          send({ type: 'file', id, name, level, bytes: own }, [own.buffer]);
        } catch (error) {
          adds.delete(id);
          reject(error);
        }
      });
    },
    async folder(name) {
      send({ type: 'folder', name });
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        closing = { resolve, reject };
        try {
          send({ type: 'close' });
        } catch (error) {
          reject(error);
        }
      }).then(() => {
        // Clean: every chunk written and acknowledged, so the Worker is back where it started.
        if (ended === undefined) detach(true);
      });
    },
    dispose,
  };
}
