// The folder picker (File System Access API, Chromium browsers). Cancelling is not an error: it returns null.
import { HarnessError } from '../contracts';
import type { WorkspaceAccess } from '../contracts';

interface DirectoryPickerWindow {
  showDirectoryPicker?(options?: {
    id?: string;
    mode?: 'read' | 'readwrite';
    startIn?: string;
  }): Promise<FileSystemDirectoryHandle>;
}

export function canPickFolders(win: unknown = globalThis): boolean {
  return typeof (win as DirectoryPickerWindow).showDirectoryPicker === 'function';
}

export async function pickFolder(
  access: WorkspaceAccess,
  win: unknown = globalThis,
): Promise<FileSystemDirectoryHandle | null> {
  const picker = (win as DirectoryPickerWindow).showDirectoryPicker;
  if (typeof picker !== 'function') {
    throw new HarnessError(
      'E_FOLDER_PICKER_UNAVAILABLE',
      'This browser cannot grant folders to web apps. Use Chrome or Edge on a desktop, or create a private workspace instead.',
    );
  }
  try {
    return await picker.call(win, {
      id: 'i-workspace',
      mode: access === 'read-write' ? 'readwrite' : 'read',
      startIn: 'documents',
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HarnessError(
      'E_FOLDER_PICKER_FAILED',
      `The folder could not be opened (${reason}). Choose a different folder — system folders are not allowed.`,
      { reason },
    );
  }
}
