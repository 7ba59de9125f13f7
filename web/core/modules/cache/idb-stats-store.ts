// StatsStore over the app database's `metrics` object store: one record per workspace and namespace, key
// [workspaceId, 'cache-stats:<namespace>'], holding the cache statistics document. Each update is one readwrite
// transaction (read, change, write), so concurrent tabs serialise. A record that is not a stats document is
// refused (E_CACHE_STATS_CORRUPT) and left as it is.
import type { HarnessDb } from '../../storage';
import { parseStats, type CacheStats } from './cache-stats';
import { corruptStats, type StatsStore } from './stats-store';

export const cacheStatsName = (namespace: string) => `cache-stats:${namespace}`;

/** `name` replaces the record name (the smoke test keeps its own statistics apart from every workspace's). */
export function createIdbStatsStore(
  db: HarnessDb,
  o: { workspaceId: string; namespace: string; name?: string },
): StatsStore {
  const key: [string, string] = [o.workspaceId, o.name ?? cacheStatsName(o.namespace)];
  const where = `metrics ${key.join('/')}`;
  const load = (record: Record<string, unknown> | undefined): CacheStats => {
    const s = parseStats(record?.stats, o.namespace);
    if (!s) throw corruptStats(where);
    return s;
  };
  return {
    async read() {
      return load(await db.get('metrics', key));
    },
    async update(change) {
      const tx = db.transaction('metrics', 'readwrite');
      try {
        const s = load(await tx.store.get(key));
        change(s);
        await tx.store.put({ workspaceId: key[0], name: key[1], stats: s, updatedAt: Date.now() });
        await tx.done;
        return s;
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // already finished
        }
        await tx.done.catch(() => undefined);
        throw error;
      }
    },
  };
}
