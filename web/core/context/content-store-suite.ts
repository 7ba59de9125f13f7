// The ContentStore contract (seed 002), shared by every implementation: the memory store runs it in content-store.test.ts, the file
// store of a session folder in sessions/file-content-store.test.ts.
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../contracts/errors';
import type { ContentScope, ContentStore, ContentStoreConfig } from './content-store';

const config: ContentStoreConfig = {
  storeId: 'mem-1',
  maxEntries: 3,
  maxBytes: 100,
  maxContentBytes: 60,
  maxPageBytes: 16,
  maxTtlMs: 1000,
};
const scope: ContentScope = { sessionId: 's1', taskId: 't1', expiresAtMs: 10_000 };

async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (HarnessError.isInstance(e)) return e.code;
    throw e;
  }
  throw new Error('expected a refusal');
}

export function contentStoreContract(name: string, make: (c: ContentStoreConfig) => ContentStore): void {
  describe(`${name}: the content store contract`, () => {
    it('stores with an expiry bounded by both the scope and the max TTL', async () => {
      const store = make(config);
      const ref = await store.put('call-1', 'hello', scope, 0);
      expect(ref).toEqual({
        storeId: 'mem-1',
        sourceId: 'call-1',
        sessionId: 's1',
        taskId: 't1',
        totalBytes: 5,
        expiresAtMs: 1000,
      });
      const short = await store.put('call-2', 'x', { ...scope, expiresAtMs: 300 }, 0);
      expect(short.expiresAtMs).toBe(300);
    });

    it('is idempotent for the same source and content, and refuses a different content or scope', async () => {
      const store = make(config);
      const a = await store.put('call-1', 'same', scope, 0);
      expect(await store.put('call-1', 'same', scope, 5)).toEqual(a);
      expect(await code(store.put('call-1', 'other', scope, 5))).toBe('E_CONTENT_CONFLICT');
      expect(await code(store.put('call-1', 'same', { ...scope, taskId: 't2' }, 5))).toBe('E_CONTENT_CONFLICT');
      expect((await store.read(a, scope, 6, 0, 16)).text).toBe('same');
    });

    it('enforces max entries, total bytes and single content size', async () => {
      const store = make(config);
      expect(await code(store.put('big', 'x'.repeat(61), scope, 0))).toBe('E_CONTENT_TOO_LARGE');
      await store.put('a', 'x'.repeat(50), scope, 0);
      expect(await code(store.put('b', 'x'.repeat(51), scope, 0))).toBe('E_CONTENT_STORE_FULL');
      await store.put('b', 'y', scope, 0);
      await store.put('c', 'z', scope, 0);
      expect(await code(store.put('d', 'w', scope, 0))).toBe('E_CONTENT_STORE_FULL');
    });

    it('purges expired entries on put and on demand, and never reads expired content', async () => {
      const store = make(config);
      const ref = await store.put('a', 'x'.repeat(50), scope, 0);
      expect(await code(store.read(ref, scope, 1000, 0, 16))).toBe('E_CONTENT_EXPIRED');
      await store.put('b', 'x'.repeat(50), scope, 0);
      expect(await store.purgeExpired(2000)).toBe(1);
      // Space freed by expiry is usable again.
      await store.put('c', 'x'.repeat(50), scope, 2000);
      await store.put('d', 'x'.repeat(50), scope, 2000);
    });

    it('refuses an already expired scope', async () => {
      const store = make(config);
      expect(await code(store.put('a', 'x', { ...scope, expiresAtMs: 5 }, 5))).toBe('E_CONTENT_EXPIRED');
    });

    it('reads only with a reference equal to the stored metadata and the same session and task', async () => {
      const store = make(config);
      const ref = await store.put('a', 'abc', scope, 0);
      expect(await code(store.read({ ...ref, totalBytes: 2 }, scope, 1, 0, 16))).toBe('E_CONTENT_REF_INVALID');
      expect(await code(store.read({ ...ref, expiresAtMs: 9999 }, scope, 1, 0, 16))).toBe('E_CONTENT_REF_INVALID');
      expect(await code(store.read({ ...ref, storeId: 'other' }, scope, 1, 0, 16))).toBe('E_CONTENT_REF_INVALID');
      expect(await code(store.read({ ...ref, sourceId: 'b' }, scope, 1, 0, 16))).toBe('E_CONTENT_REF_INVALID');
      expect(await code(store.read(ref, { ...scope, sessionId: 's2' }, 1, 0, 16))).toBe('E_CONTENT_SCOPE');
      expect(await code(store.read(ref, { ...scope, taskId: 't2' }, 1, 0, 16))).toBe('E_CONTENT_SCOPE');
    });

    it('pages on whole characters, refuses offsets inside a character and pages over the limit', async () => {
      const store = make(config);
      const text = '工具数据'.repeat(3); // 12 chars × 3 bytes = 36 bytes
      const ref = await store.put('a', text, scope, 0);
      const first = await store.read(ref, scope, 1, 0, 16);
      expect(first.text).toBe('工具数据工'); // 15 bytes: the 6th character would cross 16
      expect(first.nextOffset).toBe(15);
      let all = first.text;
      let next = first.nextOffset;
      while (next !== null) {
        const p = await store.read(ref, scope, 1, next, 16);
        all += p.text;
        next = p.nextOffset;
      }
      expect(all).toBe(text);
      expect(await code(store.read(ref, scope, 1, 1, 16))).toBe('E_CONTENT_OFFSET');
      expect(await code(store.read(ref, scope, 1, 36, 16))).toBe('E_CONTENT_OFFSET');
      expect(await code(store.read(ref, scope, 1, 0, 17))).toBe('E_CONTENT_PAGE_LIMIT');
      expect(await code(store.read(ref, scope, 1, 0, 0))).toBe('E_CONTENT_PAGE_LIMIT');
      expect(await code(store.read(ref, scope, 1, 0, 2))).toBe('E_CONTENT_PAGE_TOO_SMALL');
    });

    it('refuses an invalid configuration', () => {
      expect(() => make({ ...config, maxEntries: 0 })).toThrow(/maxEntries/);
      expect(() => make({ ...config, maxContentBytes: 101 })).toThrow(/maxContentBytes/);
      expect(() => make({ ...config, storeId: 'a/b' })).toThrow(/storeId/);
    });
  });
}
