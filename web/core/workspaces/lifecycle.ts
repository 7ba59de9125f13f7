// Creating and deleting a workspace touches two stores that share no transaction: IndexedDB (the record) and,
// for private workspaces, OPFS (the directory). The record is written first and rolled back if the directory
// cannot be made, so the registry never lists a workspace without its files.
import { HarnessError } from '../contracts';
import type { WorkspaceAccess } from '../contracts';
import type { HarnessDb, WorkspaceRecord } from '../storage';
import { opfsWorkspaceDirectory, removeOpfsWorkspaceDirectory, type OpfsRoot } from './opfs';
import { createWorkspaceRecord, deleteWorkspaceRecord, getWorkspace, type RegistryOptions } from './registry';

export async function createOpfsWorkspace(
  db: HarnessDb,
  name: string,
  options: RegistryOptions & { opfsRoot?: OpfsRoot } = {},
): Promise<WorkspaceRecord> {
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

/**
 * Deletes the workspace and the app's data about it; a private workspace's files go too, a granted folder stays.
 * A private workspace's directory goes first: if it cannot be removed (a file held open by another tab or a
 * writer), the record stays listed so the person can delete again, instead of a record gone and its files
 * left in OPFS where nothing in the app can reach or free them.
 */
export async function deleteWorkspace(db: HarnessDb, id: string, options: { opfsRoot?: OpfsRoot } = {}): Promise<void> {
  const record = await getWorkspace(db, id);
  if (record?.kind === 'opfs') {
    try {
      await removeOpfsWorkspaceDirectory(id, options.opfsRoot);
    } catch (error) {
      if (HarnessError.isInstance(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new HarnessError(
        'E_WORKSPACE_FILES_BUSY',
        `The private files of “${record.name}” could not all be deleted (${reason}). The workspace is kept: close other tabs of i and wait for the agent to finish, then delete it again.`,
        { id, reason },
        { cause: error },
      );
    }
  }
  await deleteWorkspaceRecord(db, id);
}
