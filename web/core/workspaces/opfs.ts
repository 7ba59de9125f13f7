// Private workspaces live in the origin private file system (OPFS): no folder grant, no permission prompt, and
// the files are only reachable through this app. Deleting the workspace deletes its directory.
import { HarnessError } from '../contracts';
import { OPFS_WORKSPACES_DIR } from './limits';

export type OpfsRoot = () => Promise<FileSystemDirectoryHandle>;

export const defaultOpfsRoot: OpfsRoot = async () => {
  if (!globalThis.navigator?.storage?.getDirectory) {
    throw new HarnessError(
      'E_OPFS_UNAVAILABLE',
      'This browser has no private file system for apps. Use a current Chrome or Edge, or grant a folder instead.',
    );
  }
  return navigator.storage.getDirectory();
};

export async function opfsWorkspaceDirectory(
  id: string,
  { create, root = defaultOpfsRoot }: { create: boolean; root?: OpfsRoot },
): Promise<FileSystemDirectoryHandle> {
  const base = await (await root()).getDirectoryHandle(OPFS_WORKSPACES_DIR, { create });
  return base.getDirectoryHandle(id, { create });
}

export async function removeOpfsWorkspaceDirectory(id: string, root: OpfsRoot = defaultOpfsRoot): Promise<void> {
  try {
    const base = await (await root()).getDirectoryHandle(OPFS_WORKSPACES_DIR);
    await base.removeEntry(id, { recursive: true });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'NotFoundError') return;
    throw error;
  }
}
