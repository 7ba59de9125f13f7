// Public face of web/core/headless (Node only; reached through web/core/node.ts): the `i` run as a function.
export { runCli, EXIT_OK, EXIT_TURN_FAILED, EXIT_USAGE, type CliIo } from './run';
export { parseArgs, USAGE, type CliArgs } from './args';
export { parseModelConfig, DEFAULT_MAX_TOKENS, DEFAULT_IO_LIMIT_BYTES, type ModelConfig } from './model-config';
export { resolveAppPaths, type AppPaths } from './paths';
export { toJsonEvent, JSON_EVENTS_VERSION, type JsonEvent } from './json-events';
