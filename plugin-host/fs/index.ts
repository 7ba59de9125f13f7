// Browser-safe face of the WorkspaceFs port: the interface, the shared path policy, the shared E_FS_* errors and
// the File System Access implementation. Node-only code (node:fs) is exported from ./node.ts.
export type { WorkspaceFs, WorkspaceAccess, DirEntry, FileStat, WriteOptions } from './workspace-fs';
export {
  MAX_NAME_BYTES,
  MAX_PATH_BYTES,
  compareNames,
  joinWorkspacePath,
  nameProblem,
  nfcCollisions,
  normalizeWorkspacePath,
  pathError,
  sameName,
} from './path-policy';
export type { PathErrorCode, WorkspacePath } from './path-policy';
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_LIST_ENTRIES,
  decodeUtf8Strict,
  encodeUtf8Strict,
  fsError,
} from './fs-common';
export type { FsErrorCode } from './fs-common';
export { createFsaWorkspaceFs, fromDomError } from './fsa-workspace-fs';
export type { FsaWorkspaceFsOptions } from './fsa-workspace-fs';
export {
  ASK_REASON_TEXT,
  DEFAULT_WRITE_POLICY,
  checkWriteTarget,
  classifyWritePath,
  foldName,
  I_STATE_FOLDER,
  iStatePathError,
  judgeRemove,
  judgeWrite,
  protectWrites,
  protectedPathError,
  shownPathArgument,
  shownWritePath,
  withWritePolicyOf,
  writePolicyOf,
} from './write-policy';
export type { AskReason, WriteClass, WritePolicy, WriteTarget } from './write-policy';
