// The StatsStore port: one cache statistics document, changed by read-modify-write under the store's own lock
// (Node: the registry-file lock and atomic replace; memory: serialised in-process; the app may later use the
// IndexedDB `metrics` store under [workspaceId, 'cache-stats']).
import { HarnessError } from '../../contracts';
import { parseStats, type CacheStats } from './cache-stats';

export interface StatsStore {
  read(): Promise<CacheStats>;
  /** Contract: `change` mutates the current document; the store writes it back whole, atomically. */
  update(change: (stats: CacheStats) => void): Promise<CacheStats>;
}

export const corruptStats = (where: string) =>
  new HarnessError(
    'E_CACHE_STATS_CORRUPT',
    `The cache statistics at ${where} are not a version 1 document; they were left as they are. Move the file away to start fresh.`,
    { where },
  );

export function createMemoryStatsStore(namespace: string): StatsStore {
  let doc = parseStats(undefined, namespace)!;
  let queue: Promise<unknown> = Promise.resolve();
  return {
    async read() {
      return structuredClone(doc);
    },
    update(change) {
      const run = queue.then(() => {
        const next = structuredClone(doc);
        change(next);
        doc = next;
        return structuredClone(doc);
      });
      queue = run.catch(() => undefined);
      return run;
    },
  };
}
