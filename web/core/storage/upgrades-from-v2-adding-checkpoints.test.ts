import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { createV2Database } from './__fixtures__/schema-v2';
import { openHarnessDb } from './open-db';
import { DB_VERSION, STORE_NAMES } from './schema';

describe('database upgrade to v3 (checkpoints)', () => {
  it('keeps v2 records and adds the checkpoint stores with their indexes', async () => {
    const name = `test-db-v2-${Date.now()}`;
    await createV2Database(name, {
      workspaces: [
        {
          id: 'w1',
          name: 'Project',
          nameKey: 'project',
          kind: 'opfs',
          access: 'read-write',
          createdAt: 1,
          updatedAt: 2,
        },
      ],
      content: [{ ref: 'a'.repeat(64), workspaceId: 'w1', text: 'kept' }],
    });
    const db = await openHarnessDb(name);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([...STORE_NAMES].sort());
    expect(await db.get('workspaces', 'w1')).toMatchObject({ name: 'Project', kind: 'opfs' });
    expect(await db.get('content', 'a'.repeat(64))).toMatchObject({ text: 'kept' });
    const tx = db.transaction(['checkpoint_blobs', 'checkpoint_records']);
    expect(tx.objectStore('checkpoint_blobs').keyPath).toEqual(['workspaceId', 'sha']);
    expect([...tx.objectStore('checkpoint_blobs').indexNames]).toEqual(['by_size']);
    expect(tx.objectStore('checkpoint_records').keyPath).toEqual(['workspaceId', 'seq']);
    expect([...tx.objectStore('checkpoint_records').indexNames]).toEqual(['by_session']);
    await tx.done;
    await db.put('checkpoint_blobs', { workspaceId: 'w1', sha: 'b'.repeat(64), size: 1, bytes: new Uint8Array([1]) });
    expect(await db.get('checkpoint_blobs', ['w1', 'b'.repeat(64)])).toMatchObject({ size: 1 });
    db.close();
  });
});
