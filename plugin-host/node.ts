// Node-only face of plugin-host (node:fs, worker_threads): for the packager, the headless runner and tests.
export * from './fs/node';
export * from './runtime/node';
