// Damaged IndexedDB session data, shared by the fake-indexeddb (Node) and Chromium tests: every case is refused
// with E_SESSION_CORRUPT / E_SESSION_VERSION and a way out, nothing is changed by loading, and the session can
// still be deleted on purpose.
import { describe, expect, it } from 'vitest';
import type { HarnessDb } from '../storage';
import { createIdbSessionStore } from './idb-store';
import type { SessionEntry } from './types';

const entry = (text: string): SessionEntry => ({ kind: 'message', message: { role: 'user', content: text } });

export function idbDamageCases(name: string, open: () => Promise<HarnessDb>): void {
  describe(`${name} session store with damaged records`, () => {
    const setup = async () => {
      const db = await open();
      const store = createIdbSessionStore(db, 'ws');
      const info = await store.create({ title: 'Damaged 会话' });
      await store.commit(info.id, [entry('a'), entry('b'), entry('c')], info.checkpointSeq);
      const count = () => db.count('session_entries', IDBKeyRange.bound([info.id, 0], [info.id, Infinity]));
      return { db, store, id: info.id, count };
    };

    it('names a missing middle entry, changes nothing, and can still be deleted', async () => {
      const { db, store, id, count } = await setup();
      await db.delete('session_entries', [id, 1]);
      const error = await store.load(id).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'E_SESSION_CORRUPT', data: { intactEntries: 1, checkpointSeq: 2 } });
      expect((error as Error).message).toContain('entry 1 is missing');
      expect((error as Error).message).toContain(
        'Recover what is intact into a new session (this one stays as it is), or delete this session',
      );
      expect(await count()).toBe(2);
      await store.delete(id);
      expect(await count()).toBe(0);
    });

    it('refuses a stored entry that is not an entry instead of replaying it', async () => {
      const { db, store, id } = await setup();
      await db.put('session_entries', { sessionId: id, seq: 2, entry: { kind: 'bogus' } });
      await expect(store.load(id)).rejects.toMatchObject({
        code: 'E_SESSION_CORRUPT',
        message: expect.stringContaining('entry 2 is not a session entry'),
      });
      await db.put('session_entries', {
        sessionId: id,
        seq: 2,
        entry: { kind: 'message', message: { role: 'tool', content: 'no id' } },
      });
      await expect(store.load(id)).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT', data: { intactEntries: 2 } });
    });

    it('refuses a pointer past the last entry', async () => {
      const { db, store, id } = await setup();
      const record = (await db.get('sessions', id))!;
      await db.put('sessions', { ...record, checkpointSeq: 5 });
      await expect(store.load(id)).rejects.toMatchObject({
        code: 'E_SESSION_CORRUPT',
        message: expect.stringContaining('entries 3–5 are missing'),
      });
    });

    it('refuses a session of another format version but deletes it when asked', async () => {
      const { db, store, id, count } = await setup();
      const record = (await db.get('sessions', id))!;
      await db.put('sessions', { ...record, formatVersion: 2 } as typeof record);
      await expect(store.load(id)).rejects.toMatchObject({ code: 'E_SESSION_VERSION' });
      await store.delete(id);
      expect(await db.get('sessions', id)).toBeUndefined();
      expect(await count()).toBe(0);
    });
  });
}
