export type { WorkspaceFs, WorkspaceAccess, DirEntry, FileStat } from './workspace-fs';
