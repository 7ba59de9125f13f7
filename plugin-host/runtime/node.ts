// Node-only face of the plugin runtime: worker_threads workers running the shared driver, and a file-backed KV
// store for `hplugin run --storage DIR`.
export { createNodeWorker, nodeWorkerFactory, type NodeWorkerOptions } from './node-worker';
export { FileKvStore } from './node-kv-store';
