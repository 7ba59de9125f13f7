// Public face of web/core/workspaces: the registry (UUID identity, bounded), private OPFS workspaces, granted
// folders and their permission life cycle, and opening a workspace's WorkspaceFs.
export { MAX_WORKSPACES, MAX_WORKSPACE_NAME_LENGTH, OPFS_WORKSPACES_DIR } from './limits';
export { isWorkspaceId, validateWorkspaceName, workspaceNameFromFolder } from './names';
export {
  listWorkspaces,
  getWorkspace,
  createWorkspaceRecord,
  renameWorkspace,
  updateWorkspaceGrant,
  deleteWorkspaceRecord,
  type NewWorkspace,
  type RegistryOptions,
} from './registry';
export { createOpfsWorkspace, createFolderWorkspace, deleteWorkspace } from './lifecycle';
export { opfsWorkspaceDirectory, removeOpfsWorkspaceDirectory, defaultOpfsRoot, type OpfsRoot } from './opfs';
export {
  queryWorkspaceAccess,
  requestWorkspaceAccess,
  openWorkspaceFs,
  workspaceDirectory,
  type AccessState,
  type WorkspaceFsFactory,
} from './access';
export { canPickFolders, pickFolder } from './picker';
