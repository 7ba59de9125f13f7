import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createV1Database } from './__fixtures__/schema-v1';
import { openHarnessDb } from './open-db';
import { MIGRATIONS } from './migrations';
import { DB_VERSION, STORE_NAMES } from './schema';

let n = 0;
const freshName = () => `test-db-${Date.now()}-${n++}`;

describe('database schema and migrations', () => {
  it('creates every store and index at the newest version on a fresh open', async () => {
    const db = await openHarnessDb(freshName());
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([...STORE_NAMES].sort());
    const tx = db.transaction(['workspaces', 'sessions', 'plugins', 'content', 'plugin_kv', 'session_entries']);
    expect([...tx.objectStore('workspaces').indexNames]).toEqual(['by_name_key']);
    expect([...tx.objectStore('sessions').indexNames]).toEqual(['by_workspace']);
    expect([...tx.objectStore('plugins').indexNames]).toEqual(['by_sha256']);
    expect([...tx.objectStore('content').indexNames]).toEqual(['by_workspace']);
    expect(tx.objectStore('plugin_kv').keyPath).toEqual(['workspaceId', 'pluginId', 'key']);
    expect(tx.objectStore('session_entries').keyPath).toEqual(['sessionId', 'seq']);
    db.close();
  });

  it('numbers migrations 1..DB_VERSION without gaps', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: DB_VERSION }, (_, i) => i + 1));
  });

  it('upgrades a frozen v1 database, keeping records and back-filling new fields', async () => {
    const name = freshName();
    await createV1Database(name, {
      workspaces: [
        {
          id: '0b6f6f3e-6c5a-4a57-9a52-3b1d2f7c9a10',
          name: 'Ünïcode Project',
          access: 'read',
          createdAt: 1,
          updatedAt: 2,
        },
      ],
      settings: [{ scope: 'global', version: 1, values: { language: 'zh' }, updatedAt: 3 }],
      secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-test', updatedAt: 4 }],
    });
    const db = await openHarnessDb(name);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([...STORE_NAMES].sort());
    const ws = await db.get('workspaces', '0b6f6f3e-6c5a-4a57-9a52-3b1d2f7c9a10');
    expect(ws).toMatchObject({
      name: 'Ünïcode Project',
      access: 'read',
      kind: 'folder',
      nameKey: 'ünïcode project',
      createdAt: 1,
    });
    expect(await db.getAllFromIndex('workspaces', 'by_name_key', 'ünïcode project')).toHaveLength(1);
    expect(await db.get('settings', 'global')).toMatchObject({ values: { language: 'zh' } });
    expect(await db.get('secrets', 'OPENAI_API_KEY')).toMatchObject({ value: 'sk-test' });
    await db.put('plugin_kv', { workspaceId: 'w', pluginId: 'p', key: 'k', value: new Uint8Array([1]) });
    expect(await db.get('plugin_kv', ['w', 'p', 'k'])).toBeTruthy();
    db.close();
  });

  it('refuses a database written by a newer version with a stable code', async () => {
    const name = freshName();
    await new Promise<void>((resolve, reject) => {
      const r = indexedDB.open(name, DB_VERSION + 5);
      r.onsuccess = () => {
        r.result.close();
        resolve();
      };
      r.onerror = () => reject(r.error);
    });
    await expect(openHarnessDb(name)).rejects.toMatchObject({ code: 'E_STORAGE_NEWER_VERSION' });
  });
});
