// Node-only face of the WorkspaceFs port (node:fs): the Node implementation and the JSON registry files that the
// bridge and the headless runner share. Never imported by browser code.
export { createNodeWorkspaceFs, fromNodeError } from './node-workspace-fs';
export type { NodeWorkspaceFsOptions } from './node-workspace-fs';
export {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_STALE_LOCK_MS,
  REGISTRY_MAX_BYTES,
  readJsonFile,
  updateJsonFile,
  withFileLock,
  writeJsonFileAtomic,
} from './json-file-store';
export type { JsonFileOptions } from './json-file-store';
