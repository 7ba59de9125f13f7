// The fast path of the file store's `load` (node-file-store.ts): the committed entries from the last `reset` line
// on, found through the byte offset the checkpoint keeps. Replaying from any reset gives the same history as the
// whole log, so a session whose log holds thousands of folded messages opens as fast as a short one; the folded part
// is read only on demand (foldedMessages, loadIntact). Anything unexpected returns null and the caller reads the
// whole log, which loads or names the damage: this path never decides that a log is damaged.
import { promises as fsp } from 'node:fs';
import { entryProblem } from './replay';
import type { SessionEntry } from './types';

/** The checkpoint fields this reads. */
export interface ResetHint {
  checkpointSeq: number;
  logBytes: number;
  resetSeq?: number;
  resetBytes?: number;
}

/**
 * The committed entries from the last reset on (its byte offset is in the checkpoint), or null when there is no
 * usable hint or anything there is not as expected: the full scan then loads, or names the damage.
 */
export async function readFromReset(file: string, cp: ResetHint): Promise<SessionEntry[] | null> {
  const { resetSeq: from, resetBytes: at } = cp;
  if (from === undefined || at === undefined || from > cp.checkpointSeq || at >= cp.logBytes) return null;
  let buf: Buffer;
  try {
    const handle = await fsp.open(file, 'r');
    try {
      if ((await handle.stat()).size < cp.logBytes) return null;
      buf = Buffer.alloc(cp.logBytes - at);
      await handle.read(buf, 0, buf.length, at);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
  if (buf[buf.length - 1] !== 0x0a) return null;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const entries: SessionEntry[] = [];
  for (let start = 0; start < buf.length;) {
    const end = buf.indexOf(0x0a, start);
    try {
      const row = JSON.parse(decoder.decode(buf.subarray(start, end))) as { seq?: unknown; entry?: unknown };
      if (row.seq !== from + entries.length || entryProblem(row.entry) !== null) return null;
      entries.push(row.entry as SessionEntry);
    } catch {
      return null;
    }
    start = end + 1;
  }
  if (entries[0]?.kind !== 'reset' || from + entries.length - 1 !== cp.checkpointSeq) return null;
  return entries;
}
