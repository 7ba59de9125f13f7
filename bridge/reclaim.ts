// Memory per request. A large body passes through a few whole copies (socket chunks, the body bytes, its text,
// the parsed value, the frame for the worker, and the same on the way back), and each becomes garbage one step
// later. V8 collects large strings and external buffers only in a full collection, which the allocation rate of one
// request never triggers, so without help every copy stays resident until the request is over: ~12x the body at
// the peak. After the steps that leave a large copy behind, the bridge asks for a full collection itself, which
// keeps the peak near the copies actually alive (~6x for a 32 MiB call and its 32 MiB answer, RSS, bridge.bench.ts).
// Producers note the garbage they leave (noteGarbage); the request pipeline collects at points where no frame still
// holds a copy (collectGarbage).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Only a copy at least this large is worth a full collection (a few milliseconds): a stream of small and medium
 * requests is left to V8's own heuristics, which handle it well, and never pays for forced collections.
 */
export const RECLAIM_MIN_BYTES = 8 * 1024 * 1024;

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

let pending = false;

/** Records that a copy of `bytes` just became garbage; `collectGarbage` at the next safe point frees it. */
export function noteGarbage(bytes: number): void {
  if (bytes >= RECLAIM_MIN_BYTES) pending = true;
}

/** A safe point: no stack frame below still holds a large copy. Collects when a large copy died since the last one. */
export function collectGarbage(): void {
  if (!pending) return;
  pending = false;
  collector()?.();
}

/**
 * A young-generation collection (about a millisecond): frees the socket chunks a streamed body has already been
 * copied out of. Each is a 64 KiB external buffer that V8 would otherwise keep until its external-memory heuristics
 * fire, about another body's worth later.
 */
export function collectYoung(): void {
  (collector() as ((options?: { type: 'minor' }) => void) | null)?.({ type: 'minor' });
}
