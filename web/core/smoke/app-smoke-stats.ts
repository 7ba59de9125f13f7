// Where the app's Test connection records its observed cache statistics: one record of the app database's
// `metrics` store under the global scope, apart from every workspace's 'cache-stats:<namespace>' record (the
// browser's counterpart of headless metrics/smoke-cache.json).
import { createIdbStatsStore, type StatsStore } from '../modules';
import { GLOBAL_SCOPE } from '../settings';
import type { HarnessDb } from '../storage';
import { SMOKE_NAMESPACE } from './smoke-policy';

export const SMOKE_STATS_RECORD = 'smoke-cache';

export function appSmokeStats(db: HarnessDb): StatsStore {
  return createIdbStatsStore(db, { workspaceId: GLOBAL_SCOPE, namespace: SMOKE_NAMESPACE, name: SMOKE_STATS_RECORD });
}
