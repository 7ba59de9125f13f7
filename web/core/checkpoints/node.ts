// Node-only face of web/core/checkpoints: the session-folder store of headless `i`.
export { createNodeCheckpointStore, type NodeCheckpointStoreOptions } from './node-store';
