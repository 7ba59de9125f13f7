// The app's per-session content store over IndexedDB `content`: the shared contract, plus what the app needs of
// it — references read after a reload (a new store object over the database), limits per session, a damaged
// record refused, and a session's or workspace's records deleted with it.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createIdbSessionStore } from '../sessions/idb-store';
import { openHarnessDb } from '../storage';
import { createWorkspaceRecord, deleteWorkspaceRecord } from '../workspaces/registry';
import { contentStoreContract } from './content-store-suite';
import { checkStoreConfig, type ContentScope } from './content-store';
import { createIdbContentStore } from './idb-content-store';
import { createIdbSessionContentStore } from './idb-session-content-store';

let n = 0;
const openDb = () => openHarnessDb(`session-content-${Date.now()}-${n++}`);
const limits = {
  storeId: 'session-results',
  maxEntries: 3,
  maxBytes: 1000,
  maxContentBytes: 500,
  maxPageBytes: 64,
  maxTtlMs: 100_000,
};
const scopeOf = (sessionId: string): ContentScope => ({ sessionId, taskId: 'session', expiresAtMs: 50_000 });

contentStoreContract('IndexedDB session store', (config) => {
  // The contract suite's scope is session "s1"; every call gets a fresh database.
  checkStoreConfig(config);
  const dbp = openDb();
  let store: ReturnType<typeof createIdbSessionContentStore> | undefined;
  const lazy = async () =>
    (store ??= createIdbSessionContentStore(await dbp, { ...config, workspaceId: 'w1', sessionId: 's1' }));
  // The factory must return synchronously: forward every call to the store once its database is open.
  return {
    storeId: config.storeId,
    put: async (...a) => (await lazy()).put(...a),
    read: async (...a) => (await lazy()).read(...a),
    purgeExpired: async (...a) => (await lazy()).purgeExpired(...a),
  };
});

describe('IndexedDB session content store', () => {
  it('reads a reference through a new store object over the same database (a reload), and counts limits per session', async () => {
    const db = await openDb();
    const ref = await createIdbSessionContentStore(db, { ...limits, workspaceId: 'w1', sessionId: 'a' }).put(
      't1:1:c1',
      'é'.repeat(40),
      scopeOf('a'),
      0,
    );
    const reloaded = createIdbSessionContentStore(db, { ...limits, workspaceId: 'w1', sessionId: 'a' });
    expect(await reloaded.read(ref, scopeOf('a'), 1, 0, 64)).toEqual({
      text: 'é'.repeat(32),
      offset: 0,
      nextOffset: 64,
      totalBytes: 80,
    });
    const other = createIdbSessionContentStore(db, { ...limits, workspaceId: 'w1', sessionId: 'b' });
    await expect(other.read(ref, scopeOf('b'), 1, 0, 64)).rejects.toMatchObject({ code: 'E_CONTENT_SCOPE' });
    // Session b's limit is its own: a full session a does not stop it.
    for (const id of ['x', 'y']) await reloaded.put(id, id, scopeOf('a'), 1);
    await expect(reloaded.put('z', 'z', scopeOf('a'), 1)).rejects.toMatchObject({ code: 'E_CONTENT_STORE_FULL' });
    await other.put('z', 'z', scopeOf('b'), 1);
    db.close();
  });

  it('refuses a damaged record with E_CONTENT_CORRUPT and leaves it as it is', async () => {
    const db = await openDb();
    const store = createIdbSessionContentStore(db, { ...limits, workspaceId: 'w1', sessionId: 'a' });
    const ref = await store.put('c1', 'hello world', scopeOf('a'), 0);
    const keys = await db.getAllKeys('content');
    const entryKey = keys.find((k) => !String(k).endsWith(':index'))!;
    const record = (await db.get('content', entryKey))!;
    await db.put('content', { ...record, text: 'hello' });
    await expect(store.read(ref, scopeOf('a'), 1, 0, 64)).rejects.toMatchObject({ code: 'E_CONTENT_CORRUPT' });
    expect((await db.get('content', entryKey))!.text).toBe('hello');
    db.close();
  });

  it("deletes a session's stored results with the session, and a workspace's with the workspace", async () => {
    const db = await openDb();
    const ws = await createWorkspaceRecord(db, { name: 'w', kind: 'opfs' });
    const sessions = createIdbSessionStore(db, ws.id);
    const [s1, s2] = [await sessions.create({ title: 'one' }), await sessions.create({ title: 'two' })];
    const ref1 = await createIdbSessionContentStore(db, { ...limits, workspaceId: ws.id, sessionId: s1.id }).put(
      'c1',
      'first',
      scopeOf(s1.id),
      0,
    );
    const ref2 = await createIdbSessionContentStore(db, { ...limits, workspaceId: ws.id, sessionId: s2.id }).put(
      'c1',
      'second',
      scopeOf(s2.id),
      0,
    );
    expect(await db.count('content')).toBe(4);
    await sessions.delete(s1.id);
    expect(await db.count('content')).toBe(2);
    await expect(
      createIdbSessionContentStore(db, { ...limits, workspaceId: ws.id, sessionId: s1.id }).read(
        ref1,
        scopeOf(s1.id),
        1,
        0,
        64,
      ),
    ).rejects.toMatchObject({ code: 'E_CONTENT_REF_INVALID' });
    expect(
      (
        await createIdbSessionContentStore(db, { ...limits, workspaceId: ws.id, sessionId: s2.id }).read(
          ref2,
          scopeOf(s2.id),
          1,
          0,
          64,
        )
      ).text,
    ).toBe('second');
    await deleteWorkspaceRecord(db, ws.id);
    expect(await db.count('content')).toBe(0);
    db.close();
  });

  it('shares the workspace with the one-turn store: each counts and purges only its own records', async () => {
    const db = await openDb();
    const session = createIdbSessionContentStore(db, { ...limits, workspaceId: 'w1', sessionId: 'a' });
    const ref = await session.put('c1', 'kept for the session', scopeOf('a'), 0);
    const turn = createIdbContentStore(db, { ...limits, storeId: 'tool-results', maxTtlMs: 10, workspaceId: 'w1' });
    await turn.put('t1', 'one turn', { sessionId: 'a', taskId: 'turn-1', expiresAtMs: 10 }, 0);
    expect(await turn.purgeExpired(20)).toBe(1);
    await turn.put('t2', 'another', { sessionId: 'a', taskId: 'turn-2', expiresAtMs: 40 }, 20);
    expect((await session.read(ref, scopeOf('a'), 30, 0, 64)).text).toBe('kept for the session');
    db.close();
  });
});
