// One zip Worker kept for the next download. A fresh Worker compiles zip.js from cold for every archive: measured in
// Chromium on 1,000 small files, 919 ms in a fresh Worker, 673 ms in a kept one, 818 ms on the page's own thread.
// It is kept only after a clean download, and only for a while: an idle Worker holds a few MiB for nothing.
import type { ZipWorker } from './zip-worker-protocol';

/** How long an idle zip Worker is kept after a download. */
export const ZIP_WORKER_IDLE_MS = 60_000;

export interface ZipWorkerLease {
  worker: ZipWorker;
  /** `reusable` after a clean download (the Worker is kept); otherwise it is terminated. */
  release(reusable: boolean): void;
}

type Slot = { spawn: () => ZipWorker; worker: ZipWorker; timer: ReturnType<typeof setTimeout>; onError: () => void };
let kept: Slot | undefined;

function drop(slot: Slot): void {
  if (kept === slot) kept = undefined;
  clearTimeout(slot.timer);
  slot.worker.removeEventListener('error', slot.onError);
  slot.worker.terminate();
}

/** The kept Worker if `spawn` made it, else a new one from `spawn`. Two downloads at once get two Workers. */
export function leaseZipWorker(spawn: () => ZipWorker): ZipWorkerLease {
  let worker: ZipWorker;
  if (kept?.spawn === spawn) {
    clearTimeout(kept.timer);
    kept.worker.removeEventListener('error', kept.onError);
    worker = kept.worker;
    kept = undefined;
  } else {
    worker = spawn();
  }
  let released = false;
  return {
    worker,
    release(reusable) {
      if (released) return;
      released = true;
      if (!reusable) {
        worker.terminate();
        return;
      }
      // One is kept, the most recent: two at once only happen with two downloads at once.
      if (kept) drop(kept);
      // A Worker that fails while idle (its script did not load) is dropped, so no download inherits a dead one
      // whose error event has already passed.
      const slot: Slot = {
        spawn,
        worker,
        timer: setTimeout(() => drop(slot), ZIP_WORKER_IDLE_MS),
        onError: () => drop(slot),
      };
      worker.addEventListener('error', slot.onError);
      kept = slot;
    },
  };
}
