import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { openHarnessDb, type HarnessDb } from '../storage';
import type { ContentScope } from './content-store';
import { createIdbContentStore } from './idb-content-store';

let db: HarnessDb | undefined;
let n = 0;
afterEach(() => db?.close());
const scope: ContentScope = { sessionId: 's1', taskId: 't1', expiresAtMs: 10_000 };
async function store(workspaceId = 'w1', maxEntries = 2) {
  db ??= await openHarnessDb(`content-test-${Date.now()}-${n++}`);
  return createIdbContentStore(db, {
    workspaceId,
    storeId: 'idb-1',
    maxEntries,
    maxBytes: 100,
    maxContentBytes: 60,
    maxPageBytes: 16,
    maxTtlMs: 1000,
  });
}

describe('IndexedDB content store', () => {
  it('keeps the memory store contract: idempotent put, conflicts refused, paging on characters, scope checked', async () => {
    db = undefined;
    const s = await store();
    const ref = await s.put('call-1', 'é'.repeat(20), scope, 0);
    expect(await s.put('call-1', 'é'.repeat(20), scope, 1)).toEqual(ref);
    await expect(s.put('call-1', 'other', scope, 1)).rejects.toMatchObject({ code: 'E_CONTENT_CONFLICT' });
    await expect(s.put('call-1', 'é'.repeat(20), { ...scope, taskId: 't2' }, 1)).rejects.toMatchObject({
      code: 'E_CONTENT_CONFLICT',
    });
    const p = await s.read(ref, scope, 2, 0, 15);
    expect(p).toEqual({ text: 'é'.repeat(7), offset: 0, nextOffset: 14, totalBytes: 40 });
    await expect(s.read(ref, scope, 2, 1, 15)).rejects.toMatchObject({ code: 'E_CONTENT_OFFSET' });
    await expect(s.read(ref, { ...scope, sessionId: 'x' }, 2, 0, 15)).rejects.toMatchObject({
      code: 'E_CONTENT_SCOPE',
    });
    await expect(s.read({ ...ref, totalBytes: 1 }, scope, 2, 0, 15)).rejects.toMatchObject({
      code: 'E_CONTENT_REF_INVALID',
    });
  });

  it('limits entries, purges expired entries and never reads them, and keeps workspaces apart', async () => {
    db = undefined;
    const s = await store();
    const a = await s.put('a', 'x', scope, 0);
    await s.put('b', 'y', scope, 0);
    await expect(s.put('c', 'z', scope, 0)).rejects.toMatchObject({ code: 'E_CONTENT_STORE_FULL' });
    await expect(s.read(a, scope, 1000, 0, 16)).rejects.toMatchObject({ code: 'E_CONTENT_EXPIRED' });
    await s.put('c', 'z', scope, 1000);
    const other = await store('w2');
    await expect(other.read(a, scope, 1, 0, 16)).rejects.toMatchObject({ code: 'E_CONTENT_REF_INVALID' });
  });
});
