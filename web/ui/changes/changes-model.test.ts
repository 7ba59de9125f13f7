// The panel's list: files grouped by turn (newest first), each live file once under the earliest turn of its live
// changes (the turn its "Revert file" goes back to), reverted files kept and marked, reverts in effect listed, and
// "Keep" tied to the file's newest write.
import { describe, expect, it } from 'vitest';
import type { SessionChanges } from '../../core/page';
import type { ChangeRow } from '../../core/checkpoints';
import { activeReverts, groupByTurn, keepKey } from './changes-model';

let seq = 0;
const row = (turn: number, path: string, change: ChangeRow['change'], reverted = false): ChangeRow => ({
  seq: ++seq,
  turn,
  step: 1,
  tool: 'edit',
  callId: `c${seq}`,
  path,
  before: change === 'created' ? 'absent' : 'a',
  after: change === 'deleted' ? 'absent' : 'b',
  beforeBytes: 1,
  afterBytes: 1,
  change,
  reverted,
  at: seq,
});

function session(): SessionChanges {
  seq = 0;
  return {
    rows: [
      row(1, 'a.ts', 'modified'),
      row(1, 'gone.txt', 'created', true),
      row(2, 'b.ts', 'modified'),
      row(2, 'a.ts', 'modified'),
      row(2, 'new.md', 'created'),
      row(3, 'old.txt', 'deleted'),
    ],
    reverts: [
      { group: 'g1', tool: 'revert', turn: 1, paths: ['gone.txt'], active: true, at: 10 },
      { group: 'g2', tool: 'revert', turn: 2, paths: ['b.ts'], active: false, at: 11 },
      { group: 'g3', tool: 'redo', turn: 2, paths: ['b.ts'], active: true, at: 12 },
      { group: 'g4', tool: 'revert', turn: 2, paths: ['a.ts', 'a.ts'], active: true, at: 13 },
    ],
    files: [
      { path: 'a.ts', change: 'modified', turns: [2, 1], added: 3, removed: 1, changedSince: false },
      { path: 'b.ts', change: 'modified', turns: [2], added: 1, removed: 1, changedSince: true },
      { path: 'new.md', change: 'created', turns: [2], added: 4, removed: 0, changedSince: false },
      { path: 'old.txt', change: 'deleted', turns: [3], added: 0, removed: 2, changedSince: false },
    ],
    totals: { files: 4, added: 8, removed: 4 },
  };
}

describe('groupByTurn', () => {
  it('lists turns newest first, each file once under the earliest turn of its live changes', () => {
    const groups = groupByTurn(session());
    expect(groups.map((g) => [g.turn, g.files.map((f) => f.path)])).toEqual([
      [3, ['old.txt']],
      [2, ['b.ts', 'new.md']],
      [1, ['a.ts', 'gone.txt']],
    ]);
    const a = groups[2]!.files[0]!;
    expect(a.otherTurns).toEqual([2]);
    expect(a.revert).toEqual({ kind: 'file', path: 'a.ts', turn: 1 });
  });

  it('keeps a file whose every write was reverted, marked reverted, with no revert of its own', () => {
    const gone = groupByTurn(session())[2]!.files[1]!;
    expect(gone).toMatchObject({ path: 'gone.txt', change: 'created', reverted: true, revert: null, added: null });
  });

  it('carries counts, created/deleted and "changed since" through', () => {
    const [t3, t2] = groupByTurn(session());
    expect(t3!.files[0]).toMatchObject({ change: 'deleted', removed: 2 });
    expect(t2!.files[0]).toMatchObject({ path: 'b.ts', changedSince: true });
    expect(t2!.files[1]).toMatchObject({ change: 'created', added: 4 });
  });
});

describe('activeReverts and keepKey', () => {
  it('lists only reverts still in effect (not redone, not redos), newest first', () => {
    expect(activeReverts(session()).map((r) => r.group)).toEqual(['g4', 'g1']);
  });

  it('ties "Keep" to the newest write of the path, so a later write asks for review again', () => {
    const s = session();
    const before = keepKey(s, 'a.ts');
    s.rows.push(row(4, 'a.ts', 'modified'));
    expect(keepKey(s, 'a.ts')).not.toBe(before);
    expect(keepKey(s, 'b.ts')).toBe(keepKey(session(), 'b.ts'));
  });
});
