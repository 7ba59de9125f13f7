// What the Changes panel lists, from the session's changes (pure, tested in Node): files grouped by turn, newest turn
// first; each live file once, under the earliest turn of its live changes (the turn "Revert file" goes back to);
// files whose every write was reverted under the turn of their last write, marked reverted; and the reverts that
// are in effect, each with "Undo revert".
import type { FileChange, RevertOp, SessionChanges } from '../../core/page';
import type { RevertRow } from '../../core/page';

export interface ListedFile {
  path: string;
  change: FileChange['change'];
  /** Null when unknown (binary, too large, pruned) or reverted. */
  added: number | null;
  removed: number | null;
  changedSince: boolean;
  reverted: boolean;
  /** Other turns that changed it too (live files only). */
  otherTurns: number[];
  /** Live files: the revert of the whole file. */
  revert: RevertOp | null;
}

export interface TurnGroup {
  turn: number;
  files: ListedFile[];
}

export function groupByTurn(changes: SessionChanges): TurnGroup[] {
  const groups = new Map<number, ListedFile[]>();
  const add = (turn: number, file: ListedFile) => {
    const list = groups.get(turn) ?? [];
    list.push(file);
    groups.set(turn, list);
  };
  const live = new Set<string>();
  for (const f of changes.files) {
    live.add(f.path);
    const turns = [...f.turns].sort((x, y) => x - y);
    const first = turns[0] ?? 0;
    add(first, {
      path: f.path,
      change: f.change,
      added: f.added,
      removed: f.removed,
      changedSince: f.changedSince,
      reverted: false,
      otherTurns: turns.slice(1),
      revert: { kind: 'file', path: f.path, turn: first },
    });
  }
  // Reverted files: the last write of each path without a live one.
  const lastWrite = new Map<string, SessionChanges['rows'][number]>();
  const firstWrite = new Map<string, SessionChanges['rows'][number]>();
  for (const row of changes.rows) {
    if (live.has(row.path)) continue;
    lastWrite.set(row.path, row);
    if (!firstWrite.has(row.path)) firstWrite.set(row.path, row);
  }
  for (const [path, row] of lastWrite) {
    const first = firstWrite.get(path)!;
    const change = first.change === 'created' ? 'created' : row.change === 'deleted' ? 'deleted' : 'modified';
    add(row.turn, {
      path,
      change,
      added: null,
      removed: null,
      changedSince: false,
      reverted: true,
      otherTurns: [],
      revert: null,
    });
  }
  return [...groups.entries()].sort(([a], [b]) => b - a).map(([turn, files]) => ({ turn, files }));
}

/** Revert operations still in effect, newest first: each can be undone ("Undo revert"). */
export function activeReverts(changes: SessionChanges): RevertRow[] {
  return changes.reverts.filter((r) => r.active && r.tool === 'revert').sort((a, b) => b.at - a.at);
}

/** The distinct files a revert touched (a hunk revert and a file revert of the same path count once). */
export const revertedPaths = (row: Pick<RevertRow, 'paths'>) => [...new Set(row.paths)];

/**
 * What "Keep" on a file remembers: the path and its newest write, so a later write by the agent shows the file for
 * review again.
 */
export function keepKey(changes: SessionChanges, path: string): string {
  let seq = -1;
  for (const row of changes.rows) if (row.path === path && row.seq > seq) seq = row.seq;
  return `${path}#${seq}`;
}
