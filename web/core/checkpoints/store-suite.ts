// One behaviour suite for both checkpoint stores (IndexedDB: idb-store.test.ts; session folder: node-store.test.ts):
// identical contents stored once, records in order per session, the size cap with oldest-first pruning that is
// reported, and blobs checked against their hash.
import { describe, expect, it } from 'vitest';
import { ABSENT, type CheckpointStore, type NewRecord } from './types';

export interface StoreHarness {
  make(capBytes?: number): Promise<CheckpointStore>;
}

const bytes = (text: string) => new TextEncoder().encode(text);
const write = (
  session: string,
  turn: number,
  path: string,
  before: string,
  after: string,
  at: number,
  sizes: [number | null, number | null] = [null, null],
): NewRecord => ({
  kind: 'write',
  session,
  turn,
  step: 1,
  callId: `c${turn}`,
  tool: 'write',
  path,
  before,
  after,
  beforeBytes: sizes[0],
  afterBytes: sizes[1],
  at,
});

export function checkpointStoreSuite(name: string, h: StoreHarness): void {
  describe(`checkpoint store: ${name}`, () => {
    it('stores identical contents once and gives them back under their SHA-256', async () => {
      const store = await h.make();
      const a = await store.putBlob('s1', bytes('same contents'));
      const b = await store.putBlob('s1', bytes('same contents'));
      expect(a).toBe(b);
      expect(a).toMatch(/^[0-9a-f]{64}$/);
      await store.append(write('s1', 1, 'a.txt', ABSENT, a, 1));
      await store.append(write('s1', 1, 'b.txt', ABSENT, b, 2));
      expect(await store.usedBytes()).toBe('same contents'.length);
      expect(new TextDecoder().decode((await store.getBlob('s1', a))!)).toBe('same contents');
      expect(await store.getBlob('s1', 'f'.repeat(64))).toBeNull();
    });

    it('stages a write before the file changes: prior and new contents with the record at once, identical contents counted once', async () => {
      const store = await h.make();
      const old = bytes('old');
      const neu = bytes('new contents');
      const [oldSha, newSha] = [await store.sha256(old), await store.sha256(neu)];
      const w = (step: number, path: string, before: string, after: string, sizes: [number | null, number | null]) =>
        write('s1', 1, path, before, after, step, sizes);
      const staged = await store.stageWrite(w(1, 'a.txt', oldSha, newSha, [3, 12]), old, neu);
      expect(staged.record).toMatchObject({ seq: 0, before: oldSha, after: newSha, afterBytes: 12 });
      // Both contents are there before the file write.
      expect(new TextDecoder().decode((await store.getBlob('s1', oldSha))!)).toBe('old');
      expect(new TextDecoder().decode((await store.getBlob('s1', newSha))!)).toBe('new contents');
      // The same contents again (another file), then a removal that names no new contents.
      await store.stageWrite(w(2, 'b.txt', ABSENT, newSha, [null, 12]), null, neu);
      await store.stageWrite(w(3, 'a.txt', newSha, ABSENT, [12, null]), neu, null);
      expect(await store.usedBytes()).toBe(3 + 12);
      expect((await store.list('s1')).map((r) => r.seq)).toEqual([0, 1, 2]);
    });

    it('drops a cancelled write (its file write failed) with the contents only it named, and keeps the rest', async () => {
      const store = await h.make();
      const kept = await store.stageWrite(
        write('s1', 1, 'a.txt', ABSENT, await store.sha256(bytes('kept')), 1, [null, 4]),
        null,
        bytes('kept'),
      );
      const prior = bytes('prior of b');
      const failed = await store.stageWrite(
        write('s1', 1, 'b.txt', await store.sha256(prior), await store.sha256(bytes('never written')), 2, [10, 13]),
        prior,
        bytes('never written'),
      );
      await failed.cancel();
      expect((await store.list('s1')).map((r) => r.path)).toEqual(['a.txt']);
      expect(await store.getBlob('s1', failed.record.before)).toBeNull();
      expect(await store.getBlob('s1', failed.record.after)).toBeNull();
      expect(await store.usedBytes()).toBe(4);
      expect(await store.getBlob('s1', kept.record.after)).not.toBeNull();
    });

    it('removes stored contents no record names (orphans) and keeps every named one', async () => {
      const store = await h.make();
      const named = await store.putBlob('s1', bytes('named'));
      await store.append(write('s1', 1, 'a.txt', ABSENT, named, 1));
      const orphan = await store.putBlob('s1', bytes('stored for a write that never got its record'));
      expect(await store.sweepOrphans()).toEqual({ blobs: 1, bytes: 44 });
      expect(await store.getBlob('s1', orphan)).toBeNull();
      expect(await store.getBlob('s1', named)).not.toBeNull();
      expect(await store.usedBytes()).toBe(5);
      expect(await store.sweepOrphans()).toEqual({ blobs: 0, bytes: 0 });
    });

    it('deletes a session’s records with the contents no other session’s records name', async () => {
      const store = await h.make();
      const own = await store.putBlob('gone', bytes('only the deleted session'));
      const shared = await store.putBlob('gone', bytes('shared'));
      await store.append(write('gone', 1, 'a.txt', ABSENT, own, 1));
      await store.append(write('gone', 1, 'b.txt', ABSENT, shared, 2));
      const kept = await store.putBlob('kept', bytes('shared'));
      await store.append(write('kept', 1, 'c.txt', ABSENT, kept, 3));
      await store.dropSession('gone');
      expect(await store.list('gone')).toEqual([]);
      expect(await store.getBlob('gone', own)).toBeNull();
      expect((await store.list('kept')).map((r) => r.path)).toEqual(['c.txt']);
      expect(new TextDecoder().decode((await store.getBlob('kept', kept))!)).toBe('shared');
      expect(await store.sweepOrphans()).toEqual({ blobs: 0, bytes: 0 });
      expect(await store.usedBytes()).toBe(6);
    });

    it('names the last turn of a session from its newest marker, not from later reverts', async () => {
      const store = await h.make();
      expect(await store.lastTurn('s1')).toBe(0);
      const marker = (turn: number, at: number): NewRecord => ({
        kind: 'turn',
        session: 's1',
        turn,
        step: 0,
        callId: '',
        tool: '',
        path: '',
        before: ABSENT,
        after: ABSENT,
        beforeBytes: null,
        afterBytes: null,
        at,
      });
      await store.append(marker(1, 1));
      await store.append(marker(2, 2));
      await store.append({ ...marker(1, 3), kind: 'revert', tool: 'revert', path: 'a', group: 'g', covers: [] });
      await store.append({ ...marker(7, 4), session: 's2' });
      expect(await store.lastTurn('s1')).toBe(2);
      expect(await store.lastTurn('s2')).toBe(7);
    });

    it('keeps records per session in order, numbered by the store', async () => {
      const store = await h.make();
      const x = await store.putBlob('s1', bytes('x'));
      const y = await store.putBlob('s2', bytes('y'));
      const r1 = await store.append(write('s1', 1, 'a.txt', ABSENT, x, 1));
      await store.append(write('s2', 1, 'b.txt', ABSENT, y, 2));
      const r3 = await store.append(write('s1', 2, 'a.txt', x, ABSENT, 3));
      expect(r3.record.seq).toBeGreaterThan(r1.record.seq);
      const s1 = await store.list('s1');
      expect(s1.map((r) => [r.turn, r.path, r.before === ABSENT, r.after === ABSENT])).toEqual([
        [1, 'a.txt', true, false],
        [2, 'a.txt', false, true],
      ]);
      expect((await store.list()).map((r) => r.session).sort()).toEqual(['s1', 's1', 's2']);
    });

    it('refuses a record naming contents that were never stored', async () => {
      const store = await h.make();
      await expect(store.append(write('s1', 1, 'a.txt', ABSENT, 'e'.repeat(64), 1))).rejects.toMatchObject({
        code: 'E_CHECKPOINT_FAILED',
      });
    });

    it('prunes the oldest records over the cap, says what went, and keeps the newest states', async () => {
      const store = await h.make(250);
      const seen = [];
      for (let turn = 1; turn <= 4; turn++) {
        const sha = await store.putBlob('s1', bytes(String(turn).repeat(100)));
        const r = await store.append(write('s1', turn, `f${turn}.txt`, ABSENT, sha, turn));
        seen.push(r.pruned);
      }
      expect(seen[0]).toBeNull();
      expect(seen[1]).toBeNull();
      // The third 100-byte state goes over 250: the oldest record (turn 1) is dropped and reported.
      expect(seen[2]).toEqual({ records: 1, sessions: ['s1'], throughTurn: { s1: 1 }, bytes: 100 });
      expect(seen[3]).toMatchObject({ records: 1, throughTurn: { s1: 2 }, bytes: 100 });
      expect((await store.list('s1')).map((r) => r.turn)).toEqual([3, 4]);
      expect(await store.usedBytes()).toBe(200);
      const first = await store.putBlob('s1', bytes('3'.repeat(100)));
      expect(await store.getBlob('s1', first)).not.toBeNull();
    });

    it('never frees contents a kept record still names, and never drops turn markers', async () => {
      const store = await h.make(150);
      const shared = await store.putBlob('s1', bytes('s'.repeat(100)));
      await store.append({ ...write('s1', 1, '', ABSENT, ABSENT, 0), kind: 'turn', tool: '', callId: '' });
      await store.append(write('s1', 1, 'a.txt', ABSENT, shared, 1));
      await store.append(write('s1', 2, 'b.txt', ABSENT, shared, 2));
      const other = await store.putBlob('s1', bytes('o'.repeat(100)));
      const r = await store.append(write('s1', 3, 'c.txt', ABSENT, other, 3));
      // Both older records must go (the shared contents are freed only with the second), the marker stays.
      expect(r.pruned).toMatchObject({ records: 2, bytes: 100 });
      expect((await store.list('s1')).map((x) => [x.kind, x.pruned ?? false])).toEqual([
        ['turn', true],
        ['write', false],
      ]);
      expect(await store.getBlob('s1', shared)).toBeNull();
    });
  });
}
