// What a session changed, read from its records: which reverts are in effect (a redo undoes a revert, and can be
// undone itself), which writes they undid, and one row per write for listings (`i --changes`, the Changes panel).
import type { CheckpointRecord, FileState } from './types';

/** Revert groups in effect: not undone by a later group that is itself in effect. */
export function activeGroups(records: readonly CheckpointRecord[]): Set<string> {
  const order: string[] = [];
  const undoes = new Map<string, string>();
  for (const r of records) {
    if (r.kind !== 'revert' || r.group === undefined || order.includes(r.group)) continue;
    order.push(r.group);
    if (r.undoes !== undefined) undoes.set(r.group, r.undoes);
  }
  const active = new Set<string>();
  const undone = new Set<string>();
  // A group can only be undone by a later one, so walking backwards decides each group after all its undoers.
  for (const g of order.reverse()) {
    if (undone.has(g)) continue;
    active.add(g);
    const target = undoes.get(g);
    if (target !== undefined) undone.add(target);
  }
  return active;
}

/** Seqs of write records a revert in effect undid. */
export function revertedSeqs(records: readonly CheckpointRecord[]): Set<number> {
  const active = activeGroups(records);
  const out = new Set<number>();
  for (const r of records) {
    if (r.kind === 'revert' && r.undoes === undefined && active.has(r.group!))
      for (const seq of r.covers ?? []) out.add(seq);
  }
  return out;
}

export interface ChangeRow {
  seq: number;
  turn: number;
  step: number;
  tool: string;
  callId: string;
  path: string;
  before: FileState;
  after: FileState;
  beforeBytes: number | null;
  afterBytes: number | null;
  /** 'created', 'modified' or 'deleted', from the two states. */
  change: 'created' | 'modified' | 'deleted';
  reverted: boolean;
  at: number;
}

export interface RevertRow {
  group: string;
  /** 'revert', or 'redo' for the undo of a revert. */
  tool: string;
  turn: number;
  paths: string[];
  /** False when a later redo undid it. */
  active: boolean;
  /** A redo: the group of the revert it undid. */
  undoes?: string;
  at: number;
}

/** Every write of the session as a row, in order, and every revert operation. */
export function changesOf(records: readonly CheckpointRecord[]): { changes: ChangeRow[]; reverts: RevertRow[] } {
  const reverted = revertedSeqs(records);
  const active = activeGroups(records);
  const changes: ChangeRow[] = [];
  const reverts = new Map<string, RevertRow>();
  for (const r of records) {
    if (r.kind === 'write') {
      const change = r.before === 'absent' ? 'created' : r.after === 'absent' ? 'deleted' : 'modified';
      changes.push({
        seq: r.seq,
        turn: r.turn,
        step: r.step,
        tool: r.tool,
        callId: r.callId,
        path: r.path,
        before: r.before,
        after: r.after,
        beforeBytes: r.beforeBytes,
        afterBytes: r.afterBytes,
        change,
        reverted: reverted.has(r.seq),
        at: r.at,
      });
    } else if (r.kind === 'revert' && r.group !== undefined) {
      const row = reverts.get(r.group) ?? {
        group: r.group,
        tool: r.tool,
        turn: r.turn,
        paths: [],
        active: active.has(r.group),
        ...(r.undoes !== undefined ? { undoes: r.undoes } : {}),
        at: r.at,
      };
      row.paths.push(r.path);
      reverts.set(r.group, row);
    }
  }
  return { changes, reverts: [...reverts.values()] };
}
