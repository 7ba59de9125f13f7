// A person's edit to a file the agent is changing is never lost by a revert (review of issue 16): an edit between
// two turns, or between two writes of one turn (while an approval card waited), is a conflict for any revert that
// would go back past it; with force the revert goes on, and the person's version is still in the store for redo.
import { mkdtempSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints } from './recorder';
import { revertSince, undoRevert } from './revert';

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-person-'));
  await writeFile(join(dir, 'f.txt'), 'A\n');
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const store = createNodeCheckpointStore({ sessionsRoot: mkdtempSync(join(tmpdir(), 'ckpt-person-s-')) });
  const ctx = { store, fs, session: 's' };
  return {
    dir,
    fs,
    store,
    ctx,
    read: () => readFile(join(dir, 'f.txt'), 'utf8'),
    personWrites: (text: string) => writeFile(join(dir, 'f.txt'), text),
  };
}

describe('a person’s edit between the agent’s writes', () => {
  it('between two turns: reverting past it is a conflict naming their version; force reverts, and redo brings it back', async () => {
    const { fs, store, ctx, read, personWrites } = await setup();
    const t1 = await startTurnCheckpoints({ store, session: 's' });
    await t1.fsFor({ id: 'c1', name: 'edit', step: 1 }, fs).writeText('f.txt', 'A\nagent1\n');
    await personWrites('A\nagent1\nPERSON\n');
    const t2 = await startTurnCheckpoints({ store, session: 's' });
    await t2.fsFor({ id: 'c2', name: 'edit', step: 1 }, fs).writeText('f.txt', 'A\nagent1\nPERSON\nagent2\n');
    await expect(revertSince(ctx, 1)).rejects.toMatchObject({ code: 'E_REVERT_CONFLICT', data: { path: 'f.txt' } });
    expect(await read()).toBe('A\nagent1\nPERSON\nagent2\n');
    // Reverting only turn 2 goes back to the person's version: no conflict.
    await revertSince(ctx, 2);
    expect(await read()).toBe('A\nagent1\nPERSON\n');
    const forced = await revertSince({ ...ctx, force: true }, 1);
    expect(await read()).toBe('A\n');
    await undoRevert(ctx, forced.group);
    expect(await read()).toBe('A\nagent1\nPERSON\n');
  });

  it('within one turn: the person’s version becomes the next write’s before, and a revert past it is a conflict', async () => {
    const { fs, store, ctx, read, personWrites } = await setup();
    const t1 = await startTurnCheckpoints({ store, session: 's' });
    const call = t1.fsFor({ id: 'c1', name: 'edit', step: 1 }, fs);
    await call.writeText('f.txt', 'A\nagent1\n');
    await personWrites('A\nagent1\nPERSON\n');
    await t1.fsFor({ id: 'c2', name: 'edit', step: 2 }, fs).writeText('f.txt', 'A\nagent1\nPERSON\nagent2\n');
    const writes = (await store.list('s')).filter((r) => r.kind === 'write');
    expect(writes).toHaveLength(2);
    expect(writes[1]!.before).not.toBe(writes[0]!.after);
    await expect(revertSince(ctx, 1)).rejects.toMatchObject({ code: 'E_REVERT_CONFLICT' });
    expect(await read()).toBe('A\nagent1\nPERSON\nagent2\n');
  });
});
