import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openHarnessDb } from '../storage';
import { createIdbCheckpointStore } from './idb-store';
import { checkpointStoreSuite } from './store-suite';
import { ABSENT } from './types';

let n = 0;
const freshDb = () => openHarnessDb(`cp-test-${Date.now()}-${n++}`);

checkpointStoreSuite('IndexedDB (fake-indexeddb)', {
  async make(capBytes) {
    return createIdbCheckpointStore(await freshDb(), 'w1', capBytes !== undefined ? { capBytes } : {});
  },
});

describe('IndexedDB checkpoint store', () => {
  it('keeps workspaces apart and stores contents once per workspace across sessions', async () => {
    const db = await freshDb();
    const one = createIdbCheckpointStore(db, 'w1');
    const two = createIdbCheckpointStore(db, 'w2');
    const a = await one.putBlob('s1', new TextEncoder().encode('shared'));
    await one.putBlob('s2', new TextEncoder().encode('shared'));
    await one.append({
      kind: 'write',
      session: 's1',
      turn: 1,
      step: 1,
      callId: 'c',
      tool: 'write',
      path: 'a',
      before: ABSENT,
      after: a,
      beforeBytes: null,
      afterBytes: 6,
      at: 1,
    });
    expect(await one.usedBytes()).toBe(6);
    expect(await two.list()).toEqual([]);
    expect(await two.getBlob('s1', a)).toBeNull();
    expect(await db.count('checkpoint_blobs')).toBe(1);
  });

  it('sums the used bytes from a fresh store over the same database (a reload)', async () => {
    const db = await freshDb();
    const first = createIdbCheckpointStore(db, 'w1');
    await first.putBlob('s1', new Uint8Array(40));
    await first.putBlob('s1', new Uint8Array(2).fill(7));
    expect(await createIdbCheckpointStore(db, 'w1').usedBytes()).toBe(42);
  });
});
