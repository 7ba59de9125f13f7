// The app's host in Chromium: the IndexedDB checkpoint store over the real IndexedDB (the shared suite), and the
// recorder and reverts on an OPFS workspace, as a private workspace of the app is.
import { describe, expect, it } from 'vitest';
import { createFsaWorkspaceFs } from '../contracts/fs';
import { openHarnessDb } from '../storage';
import { changesOf } from './changes';
import { createIdbCheckpointStore } from './idb-store';
import { startTurnCheckpoints } from './recorder';
import { revertSince, undoRevert } from './revert';
import { checkpointStoreSuite } from './store-suite';

checkpointStoreSuite('IndexedDB (Chromium)', {
  async make(capBytes) {
    return createIdbCheckpointStore(
      await openHarnessDb(`cp-browser-${crypto.randomUUID()}`),
      'w1',
      capBytes !== undefined ? { capBytes } : {},
    );
  },
});

describe('checkpoints on OPFS', () => {
  it('records writes and a delete, reverts them to identical bytes, detects a later edit, and redoes', async () => {
    const opfs = await navigator.storage.getDirectory();
    const name = `cp-${crypto.randomUUID()}`;
    const fs = createFsaWorkspaceFs(await opfs.getDirectoryHandle(name, { create: true }), { access: 'read-write' });
    try {
      const original = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff]);
      await fs.writeBytes('a.bin', original);
      await fs.writeText('old.txt', 'to be deleted');
      const store = createIdbCheckpointStore(await openHarnessDb(`cp-browser-${crypto.randomUUID()}`), 'w1');
      const turn = await startTurnCheckpoints({ store, session: 's' });
      const cfs = turn.fsFor({ id: 'c1', name: 'write', step: 1 }, fs);
      await cfs.writeText('a.bin', 'agent');
      await cfs.writeText('dir/new.txt', 'created');
      await cfs.remove('old.txt');
      expect(changesOf(await store.list('s')).changes.map((c) => [c.path, c.change])).toEqual([
        ['a.bin', 'modified'],
        ['dir/new.txt', 'created'],
        ['old.txt', 'deleted'],
      ]);

      await fs.writeText('a.bin', 'person');
      await expect(revertSince({ store, fs, session: 's' }, turn.turn)).rejects.toMatchObject({
        code: 'E_REVERT_CONFLICT',
        data: { path: 'a.bin' },
      });
      expect(await fs.stat('dir/new.txt')).not.toBeNull();
      await fs.writeText('a.bin', 'agent');

      const r = await revertSince({ store, fs, session: 's' }, turn.turn);
      expect(await fs.readBytes('a.bin')).toEqual(original);
      expect(await fs.stat('dir/new.txt')).toBeNull();
      expect(await fs.readText('old.txt')).toBe('to be deleted');
      await undoRevert({ store, fs, session: 's' }, r.group);
      expect(await fs.readText('a.bin')).toBe('agent');
      expect(await fs.readText('dir/new.txt')).toBe('created');
      expect(await fs.stat('old.txt')).toBeNull();
    } finally {
      await opfs.removeEntry(name, { recursive: true });
    }
  });
});
