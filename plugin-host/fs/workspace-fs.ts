// The WorkspaceFs port: every file access of the agent, its built-in tools and plugin host calls goes through it.
// It lives at the bottom layer (plugin-host) because the plugin runtime, the packager's `hplugin run` and web/core
// all need it and the arrows only point down; web/core re-exports it as its own port.
//
// Paths are workspace-relative, '/'-separated, and pass one shared policy (path-policy.ts) in every implementation.
// '' (or '.') names the root for `list`. Errors are HarnessError-shaped with stable E_PATH_* / E_FS_* codes.

export type WorkspaceAccess = 'read' | 'read-write';

export interface DirEntry {
  /** Workspace-relative path of the entry, '/'-separated. */
  path: string;
  /** Exact name as stored on disk (not normalised). */
  name: string;
  directory: boolean;
  /** Size in bytes for files, 0 for directories. */
  size: number;
  /** Present and true when another entry of the same folder has the same name after NFC normalisation. */
  nfcTwin?: boolean;
  /** Present and true when the entry is a symbolic link (listed as its target, which stays inside the root). Only
   * the Node backend sets it; the browser's File System Access backend never shows links. Walkers (glob, search)
   * skip such entries (seed 000 §9). */
  link?: boolean;
}

export interface FileStat {
  path: string;
  directory: boolean;
  size: number;
  /** Milliseconds since the epoch, when the backend knows it. */
  modifiedMs?: number;
}

export interface WriteOptions {
  /**
   * Called once before the file changes, while it still holds its old contents (or is absent), and awaited before the
   * new contents replace it. A backend that writes the new contents aside first (Node: a temporary file; File System
   * Access: the writable's swap file) runs it meanwhile, so its work costs no extra time. A rejection leaves the file
   * as it was and is the write's error. The checkpoint recorder stores a file's prior state here (write-ahead).
   */
  beforeCommit?: () => Promise<void>;
}

export interface WorkspaceFs {
  /** What the person granted: read-only or read-write. Writes on a read-only workspace fail with E_FS_READ_ONLY. */
  readonly access: WorkspaceAccess;
  /** Short human name of the root folder (never an absolute path in the browser). */
  readonly rootName: string;
  readBytes(path: string, options?: { maxBytes?: number }): Promise<Uint8Array>;
  /** Strict UTF-8 decode; invalid bytes fail with E_FS_NOT_UTF8. */
  readText(path: string, options?: { maxBytes?: number }): Promise<string>;
  /** Atomic replace: readers see the old content or the new one, never a partial file. Creates parent folders. */
  writeBytes(path: string, data: Uint8Array, options?: WriteOptions): Promise<void>;
  writeText(path: string, text: string, options?: WriteOptions): Promise<void>;
  /**
   * Entries of one directory, sorted by name, at most `maxEntries` (E_FS_TOO_MANY_ENTRIES beyond). With `truncate`,
   * a larger folder gives `maxEntries` of its entries instead of the error (which ones is up to the file system).
   * `sizes: false` lets a backend that pays for each size (the browser's: one call per file) report files as size 0;
   * for callers that read with a byte cap anyway (search's walk).
   */
  list(path: string, options?: { maxEntries?: number; truncate?: boolean; sizes?: boolean }): Promise<DirEntry[]>;
  /** Null when nothing exists at the path. */
  stat(path: string): Promise<FileStat | null>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  mkdir(path: string): Promise<void>;
  /**
   * Only for backends that follow symbolic links (Node; File System Access never shows them): the normalised
   * workspace-relative path `path` leads to, its existing part resolved through links and the missing rest appended.
   * The write policy judges this path too, so a link `notes -> .git` cannot carry a write into .git.
   */
  realPath?(path: string): Promise<string>;
}
