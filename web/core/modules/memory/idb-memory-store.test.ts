import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openHarnessDb } from '../../storage';
import { applyMemorySet } from './memory-tools';
import { createIdbMemoryStore } from './idb-memory-store';

const db = () => openHarnessDb(`idb-memory-${Math.random()}`);

describe('IndexedDB memory store', () => {
  it('keeps each workspace its own memory and loses no entry under concurrent writers', async () => {
    const h = await db();
    const a = createIdbMemoryStore(h);
    const b = createIdbMemoryStore(h); // a second tab over the same database
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a : b).update('ws-1', (m) => applyMemorySet(m, { key: `k${i}`, value: `v${i}` })),
      ),
    );
    expect(Object.keys((await a.read('ws-1')).entries).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `k${i}`).sort(),
    );
    expect((await a.read('ws-2')).entries).toEqual({});
  });

  it('writes nothing when the change throws, and refuses a corrupt record without overwriting it', async () => {
    const h = await db();
    const store = createIdbMemoryStore(h);
    await store.update('ws-1', (m) => applyMemorySet(m, { key: 'a', value: 'one' }));
    await expect(
      store.update('ws-1', () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await store.read('ws-1')).entries).toEqual({ a: 'one' });
    await h.put('memory', { workspaceId: 'ws-1', id: 'memory', version: 7, entries: {} });
    await expect(store.read('ws-1')).rejects.toMatchObject({ code: 'E_MEMORY_CORRUPT' });
    await expect(store.update('ws-1', (m) => applyMemorySet(m, { key: 'b', value: 'two' }))).rejects.toMatchObject({
      code: 'E_MEMORY_CORRUPT',
    });
    expect((await h.get('memory', ['ws-1', 'memory']))?.version).toBe(7);
  });
});
