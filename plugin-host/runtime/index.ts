// Public face of the plugin runtime (browser-safe). Node-only pieces (worker_threads, file KV) are in ./node.ts.
//
// For the app: `createPluginRegistry` (import / list / enable per workspace / uninstall / pin a task snapshot),
// `invokePlugin` with `browserWorkerFactory` and one shared `ModuleCache`, a `KvStore` (IndexedDB, in web/core)
// and a `WriteApproval` that shows the person the path and the diff. See CONTEXT.md.
export { invokePlugin, type InvokeOptions, type InvokeResult, type RuntimePlugin } from './invoke';
export {
  performHostCall,
  type HostContext,
  type PluginPermissions,
  type WriteApproval,
  type WriteApprovalRequest,
} from './host-ops';
export { FrameMediator } from './mediator';
export {
  HOST_OP_ARGS,
  startFrame,
  resumeFrame,
  type HostOp,
  type HostCallRequest,
  type HostResponse,
  type PluginFrame,
  type ToolRequest,
} from './frames';
export { AbortCode, RefusalCode, PLUGIN_ERROR_CODE } from './codes';
export {
  ABI_VERSION,
  DEFAULT_TIMEOUT_MS,
  KV_QUOTA,
  MAX_FILE_BYTES,
  MAX_FRAME_BYTES,
  MAX_HOST_CALLS,
  MAX_LIST_ENTRIES,
  MAX_OUTPUT_BYTES,
} from './limits';
export { MemoryKvStore, type KvScope, type KvStore, type KvUsage } from './kv-store';
export { ModuleCache } from './module-cache';
export { Budget } from './budget';
export { driverMain } from './driver';
export { createBrowserWorker, browserWorkerFactory } from './browser-worker';
export type { DriverEndpoint, FromWorker, ToWorker, WorkerFactory, WorkerHandle } from './worker-protocol';
export {
  createPluginRegistry,
  toRuntimePlugin,
  type ImportResult,
  type PinnedTool,
  type PluginRegistry,
  type PluginSnapshot,
  type RegistryOptions,
} from './plugin-registry';
export {
  MemoryRegistryStorage,
  type InstalledPlugin,
  type InstalledTool,
  type RegistryStorage,
  type StoredPlugin,
} from './registry-storage';
export { publicToolName, PUBLIC_TOOL_NAME } from './tool-names';
export { SPARE_IDLE_MS, spareWorkers, type SpareWorkerOptions, type SpareWorkers } from './spare-workers';
