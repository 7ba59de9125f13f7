// FROZEN copy of database version 2, as released (v1's stores plus plugins, memory, metrics and content). Never
// edit: the migration tests open this shape and upgrade it with the current migration list.
export const V2_VERSION = 2;

export function createV2Database(name: string, seed: { workspaces?: Record<string, unknown>[]; content?: Record<string, unknown>[] }): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, V2_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      db.createObjectStore('workspaces', { keyPath: 'id' }).createIndex('by_name_key', 'nameKey');
      db.createObjectStore('settings', { keyPath: 'scope' });
      db.createObjectStore('secrets', { keyPath: 'name' });
      db.createObjectStore('sessions', { keyPath: 'id' }).createIndex('by_workspace', ['workspaceId', 'updatedAt']);
      db.createObjectStore('session_entries', { keyPath: ['sessionId', 'seq'] });
      db.createObjectStore('plugins', { keyPath: ['pluginId', 'version'] }).createIndex('by_sha256', 'sha256');
      db.createObjectStore('plugin_enablement', { keyPath: ['workspaceId', 'pluginId'] });
      db.createObjectStore('plugin_kv', { keyPath: ['workspaceId', 'pluginId', 'key'] });
      db.createObjectStore('memory', { keyPath: ['workspaceId', 'id'] });
      db.createObjectStore('metrics', { keyPath: ['workspaceId', 'name'] });
      db.createObjectStore('content', { keyPath: 'ref' }).createIndex('by_workspace', 'workspaceId');
    };
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction(['workspaces', 'content'], 'readwrite');
      for (const w of seed.workspaces ?? []) tx.objectStore('workspaces').put(w);
      for (const c of seed.content ?? []) tx.objectStore('content').put(c);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}
