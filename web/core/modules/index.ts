// Public face of web/core/modules: profiles and bindings, module tools (memory, skills, web), the context injector
// for memory/skills snapshots, and the system prompt / AGENTS.md. Node-only pieces are in ./node.ts.
export * from './profiles';
export * from './memory';
export * from './skills';
export * from './web';
export * from './context';
export * from './prompts';
export { builtinModules, builtinTools, moduleContext, type BuiltinToolsOptions } from './builtin-tools';
