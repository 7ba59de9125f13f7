// Undo's housekeeping: a deleted session's checkpoint records go with the contents only they named; contents no
// record names go; everything of the sessions that still exist stays (IndexedDB, as the app stores them).
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { ABSENT, createIdbCheckpointStore, type NewRecord } from '../checkpoints';
import { createIdbSessionStore } from '../sessions';
import { openHarnessDb } from '../storage';
import { checkpointUpkeep, tidyCheckpoints } from './checkpoint-upkeep';

const text = (s: string) => new TextEncoder().encode(s);
const write = (session: string, path: string, after: string, at: number): NewRecord => ({
  kind: 'write',
  session,
  turn: 1,
  step: 1,
  callId: 'c',
  tool: 'write',
  path,
  before: ABSENT,
  after,
  beforeBytes: null,
  afterBytes: 0,
  at,
});

async function setup() {
  const db = await openHarnessDb(`upkeep-${crypto.randomUUID()}`);
  const sessions = createIdbSessionStore(db, 'w1');
  const checkpoints = createIdbCheckpointStore(db, 'w1');
  const kept = await sessions.create({ title: 'kept' });
  const gone = await sessions.create({ title: 'gone' });
  const shared = await checkpoints.putBlob(kept.id, text('shared'));
  const own = await checkpoints.putBlob(gone.id, text('only the deleted session'));
  await checkpoints.append(write(kept.id, 'a.txt', shared, 1));
  await checkpoints.append(write(gone.id, 'b.txt', shared, 2));
  await checkpoints.append(write(gone.id, 'c.txt', own, 3));
  const orphan = await checkpoints.putBlob(kept.id, text('stored for a write that failed'));
  await sessions.delete(gone.id);
  return { db, sessions, checkpoints, kept: kept.id, gone: gone.id, shared, own, orphan };
}

describe('checkpoint upkeep in the app', () => {
  it('drops a deleted session’s records and the contents only they named, and contents no record names', async () => {
    const { sessions, checkpoints, kept, gone, shared, own, orphan } = await setup();
    const r = await tidyCheckpoints(checkpoints, sessions);
    expect(r).toEqual({
      sessions: [gone],
      blobs: 2,
      bytes: 'only the deleted session'.length + 'stored for a write that failed'.length,
    });
    expect(await checkpoints.list(gone)).toEqual([]);
    expect((await checkpoints.list(kept)).map((x) => x.path)).toEqual(['a.txt']);
    expect(await checkpoints.getBlob(kept, shared)).not.toBeNull();
    expect(await checkpoints.getBlob(gone, own)).toBeNull();
    expect(await checkpoints.getBlob(kept, orphan)).toBeNull();
    expect(await checkpoints.usedBytes()).toBe('shared'.length);
  });

  it('runs once per app agent, however many turns ask', async () => {
    const { sessions, checkpoints } = await setup();
    let lists = 0;
    const counted = { ...checkpoints, list: (s?: string) => (lists++, checkpoints.list(s)) };
    const tidy = checkpointUpkeep(counted, sessions);
    await Promise.all([tidy(), tidy()]);
    await tidy();
    expect(lists).toBe(1);
  });
});
