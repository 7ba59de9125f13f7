// Oldest-first pruning, shared by both stores: drop the oldest file records (never turn markers, never the record
// just appended) until the blobs they alone referred to no longer exceed the cap. A blob still referred to by a
// kept record stays, so dropping a record may free nothing; the loop goes on to the next one.
import { ABSENT, type CheckpointRecord, type Pruned } from './types';

export interface PrunePlan {
  /** Records to drop (their keys are up to the store). */
  drop: CheckpointRecord[];
  /** Turn markers of the turns that lost records, marked `pruned` (the store saves them). */
  markers: CheckpointRecord[];
  /** Blobs (keys as `blobOf` gave them) no kept record refers to any more. */
  freeBlobs: string[];
  pruned: Pruned | null;
}

/**
 * `records`: every record of the workspace, oldest first. `blobOf`: the key of the blob a record's state lives in
 * (the hash in IndexedDB; session folder + hash headless, where each session keeps its own copy). `sizeOf`: a
 * blob's size. `keep`: the records that must stay (the ones just appended).
 */
export function planPrune(
  records: readonly CheckpointRecord[],
  blobOf: (record: CheckpointRecord, sha: string) => string,
  sizeOf: (blob: string) => number,
  used: number,
  cap: number,
  keep: readonly CheckpointRecord[],
): PrunePlan {
  const kept = new Set(keep);
  if (used <= cap) return { drop: [], markers: [], freeBlobs: [], pruned: null };
  const refs = new Map<string, number>();
  const blobsOf = (r: CheckpointRecord) =>
    [...new Set([r.before, r.after])].filter((sha) => sha !== ABSENT).map((sha) => blobOf(r, sha));
  for (const r of records) for (const blob of blobsOf(r)) refs.set(blob, (refs.get(blob) ?? 0) + 1);
  const drop: CheckpointRecord[] = [];
  const freeBlobs: string[] = [];
  let freed = 0;
  for (const r of records) {
    if (used - freed <= cap) break;
    if (r.kind === 'turn' || kept.has(r) || keep.some((k) => k.session === r.session && k.seq === r.seq)) continue;
    drop.push(r);
    for (const blob of blobsOf(r)) {
      const left = refs.get(blob)! - 1;
      refs.set(blob, left);
      if (left === 0) {
        freeBlobs.push(blob);
        freed += sizeOf(blob);
      }
    }
  }
  if (drop.length === 0) return { drop, markers: [], freeBlobs, pruned: null };
  const throughTurn: Record<string, number> = {};
  for (const r of drop) throughTurn[r.session] = Math.max(throughTurn[r.session] ?? 0, r.turn);
  const lost = new Set(drop.map((r) => `${r.session}\n${r.turn}`));
  const markers = records.filter((r) => r.kind === 'turn' && !r.pruned && lost.has(`${r.session}\n${r.turn}`));
  for (const m of markers) m.pruned = true;
  return {
    drop,
    markers,
    freeBlobs,
    pruned: { records: drop.length, sessions: Object.keys(throughTurn), throughTurn, bytes: freed },
  };
}
