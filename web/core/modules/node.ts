// Node-only face of web/core/modules (node:fs, node:http, node:dns): for headless `i` and tests.
export { createNodeMemoryStore, memoryFilePath } from './memory/node-memory-store';
export { configuredSkillRoots } from './skills/node-skill-roots';
export { createNodeWebFetch, type NodeWebFetchOptions } from './web/node-web-fetch';
export { loadNodeModules, type NodeModules, type NodeModulesOptions } from './node-modules';
export { PROMPT_FILE_MAX_BYTES, readPromptsConfig } from './prompts/node-prompts-config';
export { createNodeStatsStore } from './cache/node';
export { loadCompactConfig } from './compact/node';
export { loadBoundModules } from './node-bound-modules';
