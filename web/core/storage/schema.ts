// The one IndexedDB database of the app: its name, current version and record shapes. Every store and index that
// exists at DB_VERSION is created by the migration list in migrations.ts; this file is the contract other folders
// read and write against.
//
// Key shapes (keyPath in brackets; compound keys sort by their parts in order, so a prefix range selects a group):
//   workspaces        [id]                              UUID; index by_name_key (NFC + lower-cased name)
//   settings          [scope]                           'global' | 'workspace:<uuid>'
//   secrets           [name]                            env-style name (A-Z, 0-9, _); never exported
//   sessions          [id]                              UUID; index by_workspace [workspaceId, updatedAt]
//   session_entries   [sessionId, seq]                  append-only entries; seq counts from 0
//   plugins           [pluginId, version]               index by_sha256 [sha256]
//   plugin_enablement [workspaceId, pluginId]
//   plugin_kv         [workspaceId, pluginId, key]      one plugin's KV in one workspace = a prefix range
//   memory            [workspaceId, id]
//   metrics           [workspaceId, name]               e.g. 'cache-stats'; not a deletable cache
//   content           [ref]                             content reference (sha256 hex); index by_workspace
//   checkpoint_blobs  [workspaceId, sha]                file contents before/after agent writes (sha256 hex);
//                                                       index by_size [workspaceId, size] (sizes without the bytes)
//   checkpoint_records [workspaceId, seq]               what each write/revert did to a file (web/core/checkpoints);
//                                                       index by_session [workspaceId, session, seq]
// Deleting a workspace deletes every record whose key or index starts with its id (workspaces/registry.ts).
import type { DBSchema } from 'idb';
import type { WorkspaceAccess } from '../contracts';

export const DB_NAME = 'i-harness';
export const DB_VERSION = 3;

export type WorkspaceKind = 'folder' | 'opfs';
export type WorkspaceAccessMode = WorkspaceAccess;

export interface WorkspaceRecord {
  id: string;
  name: string;
  /** NFC-normalised, lower-cased name: duplicate detection and sorting. */
  nameKey: string;
  kind: WorkspaceKind;
  access: WorkspaceAccessMode;
  /** The granted folder (kind 'folder'). OPFS workspaces find theirs at workspaces/<id> under the origin's root. */
  handle?: FileSystemDirectoryHandle;
  createdAt: number;
  updatedAt: number;
}

export interface SettingsRecord {
  scope: string;
  /** Version of the settings shape in `values` (settings/schema.ts). */
  version: number;
  values: Record<string, unknown>;
  updatedAt: number;
}

export interface SecretRecord {
  name: string;
  value: string;
  updatedAt: number;
}

export interface SessionRecord {
  id: string;
  workspaceId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** seq of the last complete checkpoint; written in the same transaction as its entries. -1 when none. */
  checkpointSeq: number;
  [extra: string]: unknown;
}

export interface SessionEntryRecord {
  sessionId: string;
  seq: number;
  [extra: string]: unknown;
}

export interface PluginRecord {
  pluginId: string;
  version: string;
  sha256: string;
  [extra: string]: unknown;
}

export interface PluginEnablementRecord {
  workspaceId: string;
  pluginId: string;
  enabled: boolean;
  [extra: string]: unknown;
}

export interface PluginKvRecord {
  workspaceId: string;
  pluginId: string;
  key: string;
  value: Uint8Array;
}

export interface MemoryRecord {
  workspaceId: string;
  id: string;
  [extra: string]: unknown;
}

export interface MetricsRecord {
  workspaceId: string;
  name: string;
  [extra: string]: unknown;
}

export interface ContentRecord {
  ref: string;
  workspaceId: string;
  [extra: string]: unknown;
}

export interface CheckpointBlobRecord {
  workspaceId: string;
  sha: string;
  size: number;
  bytes: Uint8Array;
}

/** A web/core/checkpoints CheckpointRecord with its workspace; the fields are checked when read back. */
export interface CheckpointRecordRow {
  workspaceId: string;
  seq: number;
  session: string;
  [extra: string]: unknown;
}

export interface HarnessDbSchema extends DBSchema {
  workspaces: { key: string; value: WorkspaceRecord; indexes: { by_name_key: string } };
  settings: { key: string; value: SettingsRecord };
  secrets: { key: string; value: SecretRecord };
  sessions: { key: string; value: SessionRecord; indexes: { by_workspace: [string, number] } };
  session_entries: { key: [string, number]; value: SessionEntryRecord };
  plugins: { key: [string, string]; value: PluginRecord; indexes: { by_sha256: string } };
  plugin_enablement: { key: [string, string]; value: PluginEnablementRecord };
  plugin_kv: { key: [string, string, string]; value: PluginKvRecord };
  memory: { key: [string, string]; value: MemoryRecord };
  metrics: { key: [string, string]; value: MetricsRecord };
  content: { key: string; value: ContentRecord; indexes: { by_workspace: string } };
  checkpoint_blobs: { key: [string, string]; value: CheckpointBlobRecord; indexes: { by_size: [string, number] } };
  checkpoint_records: {
    key: [string, number];
    value: CheckpointRecordRow;
    indexes: { by_session: [string, string, number] };
  };
}

export type StoreName =
  | 'workspaces'
  | 'settings'
  | 'secrets'
  | 'sessions'
  | 'session_entries'
  | 'plugins'
  | 'plugin_enablement'
  | 'plugin_kv'
  | 'memory'
  | 'metrics'
  | 'content'
  | 'checkpoint_blobs'
  | 'checkpoint_records';

export const STORE_NAMES: readonly StoreName[] = [
  'workspaces',
  'settings',
  'secrets',
  'sessions',
  'session_entries',
  'plugins',
  'plugin_enablement',
  'plugin_kv',
  'memory',
  'metrics',
  'content',
  'checkpoint_blobs',
  'checkpoint_records',
];

/** The key used for names compared as a person reads them: NFC and case-insensitive. */
export function nameKeyOf(name: string): string {
  return name.normalize('NFC').toLocaleLowerCase('en-US');
}
