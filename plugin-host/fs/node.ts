// Node-only face of the WorkspaceFs port (node:fs): the Node implementation and the JSON registry files that the
// bridge and the headless runner share. Never imported by browser code.
export { createNodeWorkspaceFs, fromNodeError } from './node-workspace-fs';
export type { NodeWorkspaceFsOptions } from './node-workspace-fs';
