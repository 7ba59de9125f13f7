import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeCheckpointStore } from './node-store';
import { checkpointStoreSuite } from './store-suite';
import { ABSENT } from './types';

checkpointStoreSuite('session folder (Node)', {
  async make(capBytes) {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    return createNodeCheckpointStore({ sessionsRoot: root, ...(capBytes !== undefined ? { capBytes } : {}) });
  },
});

describe('session-folder checkpoint store', () => {
  it('writes records.ndjson and blobs/<sha> inside the session folder, readable by a new store', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    const store = createNodeCheckpointStore({ sessionsRoot: root });
    const sha = await store.putBlob('work', new TextEncoder().encode('hello'));
    await store.append({
      kind: 'write',
      session: 'work',
      turn: 1,
      step: 1,
      callId: 'c1',
      tool: 'write',
      path: 'a.txt',
      before: ABSENT,
      after: sha,
      beforeBytes: null,
      afterBytes: 5,
      at: 1,
    });
    expect(await readFile(join(root, 'work', 'checkpoints', 'blobs', sha), 'utf8')).toBe('hello');
    const again = createNodeCheckpointStore({ sessionsRoot: root });
    expect((await again.list('work')).map((r) => r.path)).toEqual(['a.txt']);
    expect(await again.usedBytes()).toBe(5);
  });

  it('counts every session of the workspace towards the cap and prunes the oldest of any session', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    const store = createNodeCheckpointStore({ sessionsRoot: root, capBytes: 150 });
    const a = await store.putBlob('one', new Uint8Array(100));
    await store.append({
      kind: 'write',
      session: 'one',
      turn: 1,
      step: 1,
      callId: 'c',
      tool: 'write',
      path: 'a',
      before: ABSENT,
      after: a,
      beforeBytes: null,
      afterBytes: 100,
      at: 1,
    });
    const later = createNodeCheckpointStore({ sessionsRoot: root, capBytes: 150 });
    const b = await later.putBlob('two', new Uint8Array(100).fill(1));
    const r = await later.append({
      kind: 'write',
      session: 'two',
      turn: 1,
      step: 1,
      callId: 'c',
      tool: 'write',
      path: 'b',
      before: ABSENT,
      after: b,
      beforeBytes: null,
      afterBytes: 100,
      at: 2,
    });
    expect(r.pruned).toMatchObject({ sessions: ['one'], throughTurn: { one: 1 }, bytes: 100 });
    expect(await later.list('one')).toEqual([]);
    await expect(readFile(join(root, 'one', 'checkpoints', 'blobs', a))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads a blob whose bytes no longer match its hash as missing', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    const store = createNodeCheckpointStore({ sessionsRoot: root });
    const sha = await store.putBlob('work', new TextEncoder().encode('original'));
    await writeFile(join(root, 'work', 'checkpoints', 'blobs', sha), 'torn');
    expect(await store.getBlob('work', sha)).toBeNull();
  });

  it('refuses a damaged record line with E_CHECKPOINT_CORRUPT and changes nothing; a torn last line is ignored and replaced', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    const store = createNodeCheckpointStore({ sessionsRoot: root });
    const sha = await store.putBlob('work', new TextEncoder().encode('x'));
    const rec = {
      kind: 'write' as const,
      session: 'work',
      turn: 1,
      step: 1,
      callId: 'c',
      tool: 'write',
      path: 'a',
      before: ABSENT,
      after: sha,
      beforeBytes: null,
      afterBytes: 1,
      at: 1,
    };
    await store.append(rec);
    const file = join(root, 'work', 'checkpoints', 'records.ndjson');
    const good = await readFile(file, 'utf8');
    await writeFile(file, `${good}{"seq":1,"kind":"wri`);
    const torn = createNodeCheckpointStore({ sessionsRoot: root });
    expect((await torn.list('work')).map((r) => r.seq)).toEqual([0]);
    await torn.append({ ...rec, turn: 2, at: 2 });
    expect(
      (await readFile(file, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { seq: number }).seq),
    ).toEqual([0, 1]);
    const damaged = good.replace('"before":"absent"', '"before":"../../etc"');
    await writeFile(file, damaged);
    await expect(createNodeCheckpointStore({ sessionsRoot: root }).list('work')).rejects.toMatchObject({
      code: 'E_CHECKPOINT_CORRUPT',
      data: { line: 1 },
    });
    expect(await readFile(file, 'utf8')).toBe(damaged);
  });

  it('sweeps one session’s orphan contents and leaves every other session’s files alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    const store = createNodeCheckpointStore({ sessionsRoot: root });
    const orphanOf = async (session: string) => {
      const sha = await store.putBlob(session, new TextEncoder().encode(`orphan of ${session}`));
      return join(root, session, 'checkpoints', 'blobs', sha);
    };
    const mine = await orphanOf('mine');
    const other = await orphanOf('other');
    expect(await store.sweepOrphans('mine')).toEqual({ blobs: 1, bytes: 'orphan of mine'.length });
    await expect(readFile(mine)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(other, 'utf8')).toBe('orphan of other');
  });
});

describe('session-folder staging that fails before its record', () => {
  it('leaves neither contents nor a count behind (the new contents written alongside go too)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-cp-'));
    const store = createNodeCheckpointStore({ sessionsRoot: root });
    await store.append({
      kind: 'turn',
      session: 'work',
      turn: 1,
      step: 0,
      callId: '',
      tool: '',
      path: '',
      before: ABSENT,
      after: ABSENT,
      beforeBytes: null,
      afterBytes: null,
      at: 1,
    });
    const prior = new TextEncoder().encode('prior contents');
    const next = new TextEncoder().encode('new contents');
    const [priorSha, nextSha] = [await store.sha256(prior), await store.sha256(next)];
    // A folder where the prior contents' blob would go: storing them fails.
    await mkdir(join(root, 'work', 'checkpoints', 'blobs', priorSha, 'x'), { recursive: true });
    const write = {
      kind: 'write' as const,
      session: 'work',
      turn: 1,
      step: 1,
      callId: 'c',
      tool: 'write',
      path: 'a.txt',
      before: priorSha,
      after: nextSha,
      beforeBytes: prior.length,
      afterBytes: next.length,
      at: 2,
    };
    await expect(store.stageWrite(write, prior, next)).rejects.toBeTruthy();
    expect((await store.list('work')).filter((r) => r.kind === 'write')).toEqual([]);
    expect(await store.usedBytes()).toBe(0);
    await expect(readFile(join(root, 'work', 'checkpoints', 'blobs', nextSha))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });
});
