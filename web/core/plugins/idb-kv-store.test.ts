import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { KV_QUOTA, performHostCall, type HostContext } from '../../../plugin-host';
import { IdbKvStore } from './idb-kv-store';
import { freshDb } from './test-kit';

const a = { workspaceId: 'ws-a', pluginId: 'example.notes' };

function hostContext(kv: IdbKvStore, scope = a): HostContext {
  return {
    ...scope,
    permissions: { workspace: 'none', storage: true },
    fs: null,
    kv,
    approval: { mode: 'auto' },
    signal: new AbortController().signal,
    pauseBudget: () => () => {},
    onSideEffect: () => {},
  };
}

describe('plugin KV over IndexedDB', () => {
  it('keeps each (workspace, plugin) scope apart, also for keys that look like prefixes of another scope', async () => {
    const db = await freshDb();
    const kv = new IdbKvStore(db);
    await kv.put(a, 'k', '"a"');
    await kv.put({ workspaceId: 'ws-b', pluginId: 'example.notes' }, 'k', '"other workspace"');
    await kv.put({ workspaceId: 'ws-a', pluginId: 'example.notes2' }, 'k', '"other plugin"');
    await kv.put({ workspaceId: 'ws-a\u0000example.notes', pluginId: '' }, 'k', '"forged"');
    expect(await kv.get(a, 'k')).toBe('"a"');
    expect(await kv.get({ workspaceId: 'ws-b', pluginId: 'example.notes' }, 'k')).toBe('"other workspace"');
    expect(await kv.usage(a)).toEqual({ entries: 1, bytes: 1 + 3 });
    expect(await kv.get(a, 'missing')).toBeUndefined();
    await kv.delete(a, 'k');
    expect(await kv.get(a, 'k')).toBeUndefined();
    expect(await kv.get({ workspaceId: 'ws-a', pluginId: 'example.notes2' }, 'k')).toBe('"other plugin"');
    db.close();
  });

  it('clears one workspace or, on uninstall, every workspace of one plugin only', async () => {
    const db = await freshDb();
    const kv = new IdbKvStore(db);
    for (const ws of ['ws-a', 'ws-b', 'ws-c']) await kv.put({ workspaceId: ws, pluginId: 'p.one' }, 'k', '1');
    await kv.put({ workspaceId: 'ws-a', pluginId: 'p.two' }, 'k', '2');
    await kv.clear({ pluginId: 'p.one', workspaceId: 'ws-b' });
    expect(await kv.get({ workspaceId: 'ws-b', pluginId: 'p.one' }, 'k')).toBeUndefined();
    expect(await kv.countOf('p.one')).toBe(2);
    await kv.clear({ pluginId: 'p.one' });
    expect(await kv.countOf('p.one')).toBe(0);
    expect(await kv.get({ workspaceId: 'ws-a', pluginId: 'p.two' }, 'k')).toBe('2');
    db.close();
  });

  it('holds the quota through the host operations: a value too large and a key past the byte total are refused', async () => {
    const db = await freshDb();
    const kv = new IdbKvStore(db);
    const ctx = hostContext(kv);
    const big = 'x'.repeat(KV_QUOTA.maxValueBytes);
    const tooBig = await performHostCall({ id: 1, op: 'kv.put', args: { key: 'big', value: big } }, ctx);
    expect(tooBig.ok).toBe(false);
    expect(!tooBig.ok && tooBig.error).toMatch(/^E_HOST_KV_QUOTA: /);

    // Fill the scope up to the byte quota directly, then one more key through the host is refused.
    const chunk = new Uint8Array(KV_QUOTA.maxValueBytes);
    const tx = db.transaction('plugin_kv', 'readwrite');
    for (let i = 0; i < KV_QUOTA.maxTotalBytes / KV_QUOTA.maxValueBytes - 1; i++)
      void tx.store.put({ ...a, key: `k${i}`, value: chunk });
    void tx.store.put({ ...a, key: 'last', value: new Uint8Array(KV_QUOTA.maxValueBytes - 64) });
    await tx.done;
    const over = await performHostCall({ id: 2, op: 'kv.put', args: { key: 'one-more', value: 'x'.repeat(100) } }, ctx);
    expect(!over.ok && over.error).toMatch(/^E_HOST_KV_QUOTA: /);
    const fits = await performHostCall({ id: 3, op: 'kv.put', args: { key: 'k0', value: 2 } }, ctx);
    expect(fits.ok).toBe(true);
    // Another workspace of the same plugin has its own quota.
    const elsewhere = await performHostCall(
      { id: 1, op: 'kv.put', args: { key: 'one-more', value: 1 } },
      hostContext(kv, { ...a, workspaceId: 'ws-b' }),
    );
    expect(elsewhere.ok).toBe(true);
    expect(await kv.get(a, 'k0')).toBe('2');
    db.close();
  });
});
