import type { HarnessDb } from './open-db';
import type { SessionRecord } from './schema';

/** Sessions of one workspace, most recently updated first (the sidebar's list). */
export async function listSessionsOfWorkspace(
  db: HarnessDb,
  workspaceId: string,
  limit = 200,
): Promise<SessionRecord[]> {
  const range = IDBKeyRange.bound([workspaceId, -Infinity], [workspaceId, Infinity]);
  const out: SessionRecord[] = [];
  let cursor = await db.transaction('sessions').store.index('by_workspace').openCursor(range, 'prev');
  while (cursor && out.length < limit) {
    out.push(cursor.value);
    cursor = await cursor.continue();
  }
  return out;
}
