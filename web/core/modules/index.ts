// Public face of web/core/modules: profiles and bindings, module tools (memory, skills, web), the context injector
// for memory/skills snapshots, the system prompt / AGENTS.md, and the budget, compaction and cache modules. Node-only pieces are in ./node.ts.
export * from './profiles';
export * from './memory';
export * from './skills';
export * from './web';
export * from './context';
export * from './prompts';
export * from './budget';
export * from './compact';
export * from './cache';
export { builtinModules, builtinTools, moduleContext, type BuiltinToolsOptions } from './builtin-tools';
export { createIdbMemoryStore } from './memory/idb-memory-store';
export { cacheStatsName, createIdbStatsStore } from './cache/idb-stats-store';
export { parseStats } from './cache/cache-stats';
export { corruptStats } from './cache/stats-store';
