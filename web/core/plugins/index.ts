// Public face of web/core/plugins: the plugin registry and KV over the app's IndexedDB, the invocation path shared
// by the agent and Settings → Plugins, and enabled plugins as agent tools (pinned per task).
export { IdbRegistryStorage } from './idb-registry-storage';
export { IdbKvStore } from './idb-kv-store';
export {
  createPluginService,
  type PluginService,
  type PluginServiceOptions,
  type PreparedImport,
  type InvokeToolOptions,
} from './plugin-service';
export { pluginToolSource, toToolResult, type PluginToolSourceOptions, type ToolSource } from './tool-source';
export { writeApprovalDiff } from './write-diff';
export { sharedPluginService } from './shared-service';
export {
  decideImport,
  planImport,
  type ImportDecision,
  type ImportPlan,
  type PackageFacts,
  type VersionChange,
} from './import-plan';
export { validateOffThread, type ValidateOffThreadOptions } from './validate-off-thread';
export type { InstalledPlugin, InvokeResult, WriteApproval, WriteApprovalRequest } from '../../../plugin-host';
