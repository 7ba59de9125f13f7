import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Message } from '../contracts/messages';
import { openHarnessDb, type HarnessDb } from '../storage';
import { createIdbSessionStore } from './idb-store';
import { idbDamageCases } from './idb-damage-cases';
import { sessionStoreSuite } from './session-store-suite';

const dbs = new Map<string, HarnessDb>();
const dbFor = async (key: string) => {
  if (!dbs.has(key)) dbs.set(key, await openHarnessDb(`sessions-test-${key}-${Math.random()}`));
  return dbs.get(key)!;
};

sessionStoreSuite('IndexedDB', {
  async store(workspace, key) {
    return createIdbSessionStore(await dbFor(key), workspace);
  },
  async damageEntry(key, id, seq) {
    await (await dbFor(key)).put('session_entries', { sessionId: id, seq, entry: { kind: 'bogus' } });
  },
});

describe('IndexedDB session store atomicity', () => {
  it('keeps the last checkpoint when a commit transaction aborts half way (a closed tab)', async () => {
    const db = await dbFor('atomic');
    const store = createIdbSessionStore(db, 'ws');
    const info = await store.create({ title: 't' });
    const one: Message = { role: 'user', content: 'one' };
    const committed = await store.commit(info.id, [{ kind: 'message', message: one }], info.checkpointSeq);
    // The second entry cannot be cloned: the put fails after the first put was queued, aborting the transaction.
    const poisoned = { role: 'user', content: 'x', _meta: { f: () => 1 } } as unknown as Message;
    await expect(
      store.commit(
        info.id,
        [
          { kind: 'message', message: { role: 'user', content: 'two' } },
          { kind: 'message', message: poisoned },
        ],
        committed.checkpointSeq,
      ),
    ).rejects.toBeTruthy();
    const loaded = await store.load(info.id);
    expect(loaded.messages).toEqual([one]);
    expect(loaded.info.checkpointSeq).toBe(0);
    expect(await db.count('session_entries', IDBKeyRange.bound([info.id, 0], [info.id, Infinity]))).toBe(1);
  });
});

idbDamageCases('IndexedDB', () => openHarnessDb(`sessions-damage-${Math.random()}`));
