// Access to a workspace's folder. A granted folder's handle survives reloads in IndexedDB, but Chrome forgets the
// permission: after a reload queryPermission says 'prompt', and requestPermission must run inside a user gesture
// (a click on "Restore access"). OPFS workspaces are always accessible to their own origin.
import { HarnessError } from '../contracts';
import type { WorkspaceAccess, WorkspaceFs } from '../contracts';
import type { WorkspaceRecord } from '../storage';
import { opfsWorkspaceDirectory, type OpfsRoot } from './opfs';

/** 'missing': the folder or OPFS directory is gone (moved, deleted, or site data cleared). */
export type AccessState = 'granted' | 'prompt' | 'denied' | 'missing';

type PermissionMode = 'read' | 'readwrite';
interface PermissionHandle {
  queryPermission?(descriptor: { mode: PermissionMode }): Promise<PermissionState>;
  requestPermission?(descriptor: { mode: PermissionMode }): Promise<PermissionState>;
}

export type WorkspaceFsFactory = (handle: FileSystemDirectoryHandle, access: WorkspaceAccess) => WorkspaceFs;

const modeOf = (access: WorkspaceAccess): PermissionMode => (access === 'read-write' ? 'readwrite' : 'read');

export async function workspaceDirectory(
  record: WorkspaceRecord,
  opfsRoot?: OpfsRoot,
): Promise<FileSystemDirectoryHandle> {
  if (record.kind === 'opfs')
    return opfsWorkspaceDirectory(record.id, { create: false, ...(opfsRoot ? { root: opfsRoot } : {}) });
  if (!record.handle) {
    throw new HarnessError('E_WORKSPACE_NO_FOLDER', 'This workspace has no folder yet. Choose its folder again.', {
      id: record.id,
    });
  }
  return record.handle;
}

/** Reads the current permission without prompting (safe outside a user gesture). */
export async function queryWorkspaceAccess(record: WorkspaceRecord, opfsRoot?: OpfsRoot): Promise<AccessState> {
  let handle: FileSystemDirectoryHandle;
  try {
    handle = await workspaceDirectory(record, opfsRoot);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return 'missing';
    if (HarnessError.isInstance(error) && error.code === 'E_WORKSPACE_NO_FOLDER') return 'missing';
    throw error;
  }
  if (record.kind === 'opfs') return 'granted';
  const h = handle as FileSystemDirectoryHandle & PermissionHandle;
  if (!h.queryPermission) return 'granted';
  return (await h.queryPermission({ mode: modeOf(record.access) })) as AccessState;
}

/** Asks the person to allow access again. Must be called from a click or key handler (a user gesture). */
export async function requestWorkspaceAccess(record: WorkspaceRecord, opfsRoot?: OpfsRoot): Promise<AccessState> {
  const current = await queryWorkspaceAccess(record, opfsRoot);
  if (current === 'granted' || current === 'missing') return current;
  const h = (await workspaceDirectory(record, opfsRoot)) as FileSystemDirectoryHandle & PermissionHandle;
  if (!h.requestPermission) return current;
  return (await h.requestPermission({ mode: modeOf(record.access) })) as AccessState;
}

/** Opens the WorkspaceFs of a workspace whose access is granted; refuses with a code the UI can act on otherwise. */
export async function openWorkspaceFs(
  record: WorkspaceRecord,
  createFs: WorkspaceFsFactory,
  opfsRoot?: OpfsRoot,
): Promise<WorkspaceFs> {
  const state = await queryWorkspaceAccess(record, opfsRoot);
  if (state === 'missing') {
    throw new HarnessError(
      'E_WORKSPACE_FOLDER_MISSING',
      'The folder of this workspace cannot be found (it may have been moved or deleted). Choose the folder again.',
      { id: record.id },
    );
  }
  if (state !== 'granted') {
    throw new HarnessError(
      'E_WORKSPACE_ACCESS_NEEDED',
      'The browser needs your permission again to open this folder. Click “Restore access”.',
      { id: record.id, state },
    );
  }
  return createFs(await workspaceDirectory(record, opfsRoot), record.access);
}
