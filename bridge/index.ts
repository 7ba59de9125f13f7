// Public face of the bridge: start one in-process (tests, embedding) or use its pieces.
export { startBridge } from './start-bridge';
export type { BridgeOptions, RunningBridge } from './start-bridge';
export { WorkerPool } from './worker-pool';
export type { PoolOptions, WorkerTarget } from './worker-pool';
export { loadManifest, parseManifest, publicManifest } from './manifest';
export type { Manifest } from './manifest';
export { BridgeError, toErrorData } from './errors';
export type { ErrorData } from './errors';
export type * from './protocol';
