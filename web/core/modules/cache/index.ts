// Public face of the cache module (seed 000 §8): cache.json, provider cache fields, the statistics document and
// its StatsStore port, and the hook handler. The Node file store is in ./node.ts.
export {
  DEFAULT_CACHE_CONFIG,
  checkStatsPath,
  parseCacheConfig,
  type CacheConfig,
  type CacheMode,
} from './cache-config';
export {
  MAX_RECORDS,
  MAX_STREAMS,
  cacheReport,
  emptyStats,
  type CacheRecord,
  type CacheReport,
  type CacheStats,
  type CacheTotals,
  type PredictionClass,
} from './cache-stats';
export { classify, createCacheModule, promptCacheKey, withCacheFields, type CacheModuleOptions } from './cache-module';
export { readInputUsage, type InputUsage } from './provider-usage';
export { createMemoryStatsStore, type StatsStore } from './stats-store';
