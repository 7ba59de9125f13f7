import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openHarnessDb } from '../../storage';
import { cacheStatsName, createIdbStatsStore } from './idb-stats-store';

describe('IndexedDB cache statistics store', () => {
  it('serialises concurrent updates per workspace and namespace, and leaves a foreign record alone', async () => {
    const h = await openHarnessDb(`idb-stats-${Math.random()}`);
    const store = createIdbStatsStore(h, { workspaceId: 'ws-1', namespace: 'default' });
    await Promise.all(Array.from({ length: 8 }, () => store.update((s) => void s.totals.prepared++)));
    expect((await store.read()).totals.prepared).toBe(8);
    expect((await createIdbStatsStore(h, { workspaceId: 'ws-2', namespace: 'default' }).read()).totals.prepared).toBe(
      0,
    );
    await h.put('metrics', { workspaceId: 'ws-1', name: cacheStatsName('other'), stats: { version: 99 } });
    const foreign = createIdbStatsStore(h, { workspaceId: 'ws-1', namespace: 'other' });
    await expect(foreign.update((s) => void s.totals.prepared++)).rejects.toMatchObject({
      code: 'E_CACHE_STATS_CORRUPT',
    });
    expect((await h.get('metrics', ['ws-1', cacheStatsName('other')]))?.stats).toEqual({ version: 99 });
  });
});
