// The migration list: entry N upgrades a database from version N-1 to N inside the versionchange transaction.
// Entries are append-only: once released, a migration is never edited (tests replay them on frozen old schemas).
// A migration works on raw IndexedDB objects (not the typed idb wrappers) because the types describe only the
// newest schema, while a migration sees the schema as it was.
import { nameKeyOf } from './schema';

export interface Migration {
  version: number;
  description: string;
  run(db: IDBDatabase, tx: IDBTransaction): void;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'workspaces, settings, secrets, sessions and their entries',
    run(db) {
      db.createObjectStore('workspaces', { keyPath: 'id' });
      db.createObjectStore('settings', { keyPath: 'scope' });
      db.createObjectStore('secrets', { keyPath: 'name' });
      const sessions = db.createObjectStore('sessions', { keyPath: 'id' });
      sessions.createIndex('by_workspace', ['workspaceId', 'updatedAt']);
      db.createObjectStore('session_entries', { keyPath: ['sessionId', 'seq'] });
    },
  },
  {
    version: 2,
    description: 'plugin, memory, metrics and content stores; workspace name keys for duplicate detection',
    run(db, tx) {
      const plugins = db.createObjectStore('plugins', { keyPath: ['pluginId', 'version'] });
      plugins.createIndex('by_sha256', 'sha256');
      db.createObjectStore('plugin_enablement', { keyPath: ['workspaceId', 'pluginId'] });
      db.createObjectStore('plugin_kv', { keyPath: ['workspaceId', 'pluginId', 'key'] });
      db.createObjectStore('memory', { keyPath: ['workspaceId', 'id'] });
      db.createObjectStore('metrics', { keyPath: ['workspaceId', 'name'] });
      const content = db.createObjectStore('content', { keyPath: 'ref' });
      content.createIndex('by_workspace', 'workspaceId');

      // v1 workspace records have no nameKey and no kind (every v1 workspace was a granted folder).
      const workspaces = tx.objectStore('workspaces');
      workspaces.createIndex('by_name_key', 'nameKey');
      const cursorRequest = workspaces.openCursor();
      cursorRequest.onsuccess = () => {
        const cursor = cursorRequest.result;
        if (!cursor) return;
        const record = { ...(cursor.value as Record<string, unknown>) };
        if (typeof record.nameKey !== 'string') record.nameKey = nameKeyOf(String(record.name ?? ''));
        if (record.kind !== 'folder' && record.kind !== 'opfs') record.kind = 'folder';
        cursor.update(record);
        cursor.continue();
      };
    },
  },
  {
    version: 3,
    description: 'checkpoints of the files agent tools change (blobs by content hash, records per workspace)',
    run(db) {
      db.createObjectStore('checkpoint_blobs', { keyPath: ['workspaceId', 'sha'] }).createIndex('by_size', [
        'workspaceId',
        'size',
      ]);
      db.createObjectStore('checkpoint_records', { keyPath: ['workspaceId', 'seq'] }).createIndex('by_session', [
        'workspaceId',
        'session',
        'seq',
      ]);
    },
  },
];

/** Runs every migration after `oldVersion` up to `newVersion`, in order. */
export function runMigrations(db: IDBDatabase, tx: IDBTransaction, oldVersion: number, newVersion: number): void {
  for (const migration of MIGRATIONS) {
    if (migration.version > oldVersion && migration.version <= newVersion) migration.run(db, tx);
  }
}
