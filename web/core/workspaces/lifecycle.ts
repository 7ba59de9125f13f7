// Creating and deleting a workspace touches two stores that share no transaction: IndexedDB (the record) and,
// for private workspaces, OPFS (the directory). The record is written first and rolled back if the directory
// cannot be made, so the registry never lists a workspace without its files.
import type { WorkspaceAccess } from '../fs';
import type { HarnessDb, WorkspaceRecord } from '../storage';
import { opfsWorkspaceDirectory, removeOpfsWorkspaceDirectory, type OpfsRoot } from './opfs';
import { createWorkspaceRecord, deleteWorkspaceRecord, type RegistryOptions } from './registry';

export async function createOpfsWorkspace(db: HarnessDb, name: string, options: RegistryOptions & { opfsRoot?: OpfsRoot } = {}): Promise<WorkspaceRecord> {
  const record = await createWorkspaceRecord(db, { name, kind: 'opfs' }, options);
  try {
    await opfsWorkspaceDirectory(record.id, { create: true, ...(options.opfsRoot ? { root: options.opfsRoot } : {}) });
  } catch (error) {
    await deleteWorkspaceRecord(db, record.id).catch(() => undefined);
    throw error;
  }
  return record;
}

export async function createFolderWorkspace(
  db: HarnessDb,
  name: string,
  handle: FileSystemDirectoryHandle,
  access: WorkspaceAccess,
  options: RegistryOptions = {},
): Promise<WorkspaceRecord> {
  return createWorkspaceRecord(db, { name, kind: 'folder', handle, access }, options);
}

/** Deletes the workspace and the app's data about it; a private workspace's files go too, a granted folder stays. */
export async function deleteWorkspace(db: HarnessDb, id: string, options: { opfsRoot?: OpfsRoot } = {}): Promise<void> {
  const record = await deleteWorkspaceRecord(db, id);
  if (record.kind === 'opfs') await removeOpfsWorkspaceDirectory(id, options.opfsRoot);
}
