// Node-only face of the cache module: the file StatsStore.
export { createNodeStatsStore } from './node-stats-store';
