// Memory per request. A large body passes through a few whole copies (socket chunks, the body bytes, its text,
// the parsed value, the frame for the worker, and the same on the way back), and each becomes garbage one step
// later. V8 collects large strings and external buffers only in a full collection, which the allocation rate of one
// request never triggers, so without help every copy stays resident until the request is over: ~12x the body at
// the peak. After the steps that leave a large copy behind, the bridge asks for a full collection itself, which
// keeps the peak to the copies actually alive (~3-4x). Producers note the garbage they leave (noteGarbage) and the
// request pipeline collects at points where no frame still holds a copy (collectGarbage). Small requests never pay.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Below this many bytes of garbage a collection costs more than the memory it returns. */
export const RECLAIM_MIN_BYTES = 4 * 1024 * 1024;

let collect: (() => void) | undefined | null;

function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    // The documented way to reach V8's collector without starting Node with --expose-gc; a fresh context gets the
    // `gc` function, the bridge's own global stays untouched.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    collect = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}

let noted = 0;

/** Records that `bytes` of large copies just became garbage; `collectGarbage` at the next safe point frees them. */
export function noteGarbage(bytes: number): void {
  noted += bytes;
}

/**
 * A safe point: no stack frame below still holds a large copy. Collects when enough garbage was noted since the
 * last collection, so a stream of small requests never pays for it.
 */
export function collectGarbage(): void {
  if (noted < RECLAIM_MIN_BYTES) return;
  noted = 0;
  collector()?.();
}
