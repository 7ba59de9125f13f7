import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import { openHarnessDb } from './open-db';
import { listSessionsOfWorkspace } from './sessions-query';

it('lists only the sessions of one workspace, most recently updated first', async () => {
  const db = await openHarnessDb(`sessions-${Date.now()}`);
  const s = (id: string, workspaceId: string, updatedAt: number) => ({
    id,
    workspaceId,
    title: id,
    createdAt: 0,
    updatedAt,
    checkpointSeq: -1,
  });
  for (const r of [s('old', 'w1', 1), s('new', 'w1', 3), s('other', 'w2', 2), s('mid', 'w1', 2)])
    await db.put('sessions', r);
  expect((await listSessionsOfWorkspace(db, 'w1')).map((r) => r.id)).toEqual(['new', 'mid', 'old']);
  expect((await listSessionsOfWorkspace(db, 'w1', 1)).map((r) => r.id)).toEqual(['new']);
  expect(await listSessionsOfWorkspace(db, 'none')).toEqual([]);
  db.close();
});
