// FROZEN copy of database version 1, as first released. Never edit: the migration tests open this shape and
// upgrade it with the current migration list, so a change here would hide a broken migration.
export const V1_VERSION = 1;

export function createV1Database(name: string, seed: { workspaces?: Record<string, unknown>[]; settings?: Record<string, unknown>[]; secrets?: Record<string, unknown>[] }): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, V1_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('workspaces', { keyPath: 'id' });
      db.createObjectStore('settings', { keyPath: 'scope' });
      db.createObjectStore('secrets', { keyPath: 'name' });
      const sessions = db.createObjectStore('sessions', { keyPath: 'id' });
      sessions.createIndex('by_workspace', ['workspaceId', 'updatedAt']);
      db.createObjectStore('session_entries', { keyPath: ['sessionId', 'seq'] });
    };
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction(['workspaces', 'settings', 'secrets'], 'readwrite');
      for (const w of seed.workspaces ?? []) tx.objectStore('workspaces').put(w);
      for (const s of seed.settings ?? []) tx.objectStore('settings').put(s);
      for (const s of seed.secrets ?? []) tx.objectStore('secrets').put(s);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}
