// Reverts: one file to its state before a turn, every file a turn changed, everything since a turn; and the undo
// of a revert (redo). Each checks first that every file still holds what the session left in it (the hash of its
// bytes now against the last recorded state) and that every state to restore is still stored; only then is
// anything written. A revert is recorded like a write (kind 'revert', one group id per operation), so it can be
// undone in turn.
import { HarnessError } from '../contracts';
import type { WorkspaceFs } from '../contracts';
import { sha256Hex } from './hash';
import { activeGroups, revertedSeqs } from './changes';
import { ABSENT, type CheckpointRecord, type CheckpointStore, type FileState, type NewRecord } from './types';

export interface RevertContext {
  store: CheckpointStore;
  /** The workspace as the person's side writes it (the write policy applies to reverts too). */
  fs: WorkspaceFs;
  session: string;
  /** Overwrite files changed outside the session instead of refusing with E_REVERT_CONFLICT. */
  force?: boolean;
  now?: () => number;
}

export interface RevertedFile {
  path: string;
  /** The state the file was put back to, and the state it was in. */
  restored: FileState;
  replaced: FileState;
  bytes: number | null;
}

export interface RevertResult {
  /** The operation id: `undoRevert(ctx, group)` undoes it. */
  group: string;
  files: RevertedFile[];
  /** Files that held something else than the session left, overwritten because of `force`. */
  forced: string[];
}

interface Step {
  path: string;
  target: FileState;
  expected: FileState;
  covers: number[];
  /**
   * Someone else changed the file between two of the session's records (a record's `before` is not the previous
   * one's `after`): going back past that point would drop their version silently, so it is a conflict too.
   */
  gap?: { expected: FileState; actual: FileState };
}

/** The hash of what a path holds now; 'absent' when nothing is there, 'directory' for a folder. */
export async function currentState(fs: WorkspaceFs, path: string): Promise<FileState> {
  return (await readState(fs, path)).state;
}

async function readState(
  fs: WorkspaceFs,
  path: string,
  hash: (bytes: Uint8Array) => Promise<string> = sha256Hex,
): Promise<{ state: FileState; bytes: Uint8Array | null }> {
  // One read, no stat first: a missing file or a folder is the read's own refusal.
  let bytes: Uint8Array;
  try {
    bytes = await fs.readBytes(path);
  } catch (error) {
    const code = HarnessError.isInstance(error) ? error.code : '';
    if (code === 'E_FS_NOT_FILE') return { state: 'directory', bytes: null };
    if (code === 'E_FS_NOT_FOUND' || code === 'E_FS_NOT_DIRECTORY' || code === 'E_FS_BROKEN_LINK')
      return { state: ABSENT, bytes: null };
    throw error;
  }
  return { state: await hash(bytes), bytes };
}

/** Files a revert reads, checks and writes at once: enough to overlap the storage's waits, few enough to stay polite. */
const CONCURRENCY = 8;

/** Runs `fn` over `items`, at most `limit` at a time; every item settles before the first failure is thrown. */
async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

/** The state the session last left each path in: the `after` of its newest write or revert record. */
function lastStates(records: readonly CheckpointRecord[]): Map<string, FileState> {
  const out = new Map<string, FileState>();
  for (const r of records) if (r.kind !== 'turn') out.set(r.path, r.after);
  return out;
}

let groups = 0;
const newGroup = (now: number) =>
  `r${now.toString(36)}-${(groups++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** Plans restoring each path among `writes` to the state before its earliest write. */
function plan(records: readonly CheckpointRecord[], writes: readonly CheckpointRecord[]): Step[] {
  const last = lastStates(records);
  const byPath = new Map<string, Step>();
  for (const w of writes) {
    const step = byPath.get(w.path);
    if (step) step.covers.push(w.seq);
    else byPath.set(w.path, { path: w.path, target: w.before, expected: last.get(w.path)!, covers: [w.seq] });
  }
  for (const step of byPath.values()) {
    let prev: FileState | null = null;
    for (const r of records) {
      if (r.kind === 'turn' || r.path !== step.path || r.seq < step.covers[0]!) continue;
      if (prev !== null && r.before !== prev && !step.gap) step.gap = { expected: prev, actual: r.before };
      prev = r.after;
    }
  }
  return [...byPath.values()];
}

async function apply(
  ctx: RevertContext,
  steps: Step[],
  meta: { turn: number; tool: 'revert' | 'redo'; undoes?: string },
): Promise<RevertResult> {
  const now = ctx.now ?? Date.now;
  const { store, fs, session } = ctx;
  // Check everything before writing anything: every file read and hashed, every state to restore fetched, in
  // parallel (bounded); results kept in step order.
  const found = new Map<
    string,
    { actual: FileState; held: Uint8Array | null; target: Uint8Array | null; missing: boolean }
  >();
  await eachLimited(steps, CONCURRENCY, async (s) => {
    const [{ state: actual, bytes: held }, target] = await Promise.all([
      readState(fs, s.path, (b) => store.sha256(b)),
      s.target === ABSENT ? null : store.getBlob(session, s.target),
    ]);
    found.set(s.path, { actual, held, target, missing: s.target !== ABSENT && target === null });
  });
  const conflicts: Array<{ path: string; expected: FileState; actual: FileState }> = [];
  for (const s of steps) {
    const f = found.get(s.path)!;
    if (f.actual !== s.expected) conflicts.push({ path: s.path, expected: s.expected, actual: f.actual });
    else if (s.gap) conflicts.push({ path: s.path, expected: s.gap.expected, actual: s.gap.actual });
    if (f.missing) {
      throw new HarnessError(
        'E_CHECKPOINT_MISSING',
        `${s.path} cannot be put back: the contents it had (${s.target.slice(0, 12)}…) are no longer stored (pruned to keep checkpoints under the size cap, or lost). Nothing was changed. Restore it from version control or a backup.`,
        { path: s.path, sha: s.target },
      );
    }
  }
  if (conflicts.length > 0 && !ctx.force) {
    const first = conflicts[0]!;
    const list = conflicts.map((c) => c.path).join(', ');
    throw new HarnessError(
      'E_REVERT_CONFLICT',
      `${conflicts.length === 1 ? `${first.path} was` : `${conflicts.length} files were`} changed since the agent left ${conflicts.length === 1 ? 'it' : 'them'} (${list}). Nothing was reverted. Look at ${conflicts.length === 1 ? 'the file' : 'them'} and keep your edits, or revert anyway with force (headless: --force), which overwrites them.`,
      { ...first, conflicts },
    );
  }
  const group = newGroup(now());
  const done = new Map<string, { record: NewRecord; file: RevertedFile }>();
  try {
    await eachLimited(steps, CONCURRENCY, async (s) => {
      const { actual, held, target } = found.get(s.path)!;
      // What the file held is stored first, so this revert can be undone (its hash is known: no second digest); a
      // folder in the way is left to the write to refuse.
      const replaced: FileState = held ? await store.putBlob(session, held, actual) : ABSENT;
      if (target === null) {
        if (actual !== ABSENT) await fs.remove(s.path);
      } else await fs.writeBytes(s.path, target);
      done.set(s.path, {
        record: {
          kind: 'revert',
          session,
          turn: meta.turn,
          step: 0,
          callId: group,
          tool: meta.tool,
          path: s.path,
          before: replaced,
          after: s.target,
          beforeBytes: held?.byteLength ?? null,
          afterBytes: target?.byteLength ?? null,
          at: now(),
          group,
          covers: s.covers,
          ...(meta.undoes ? { undoes: meta.undoes } : {}),
        },
        file: { path: s.path, restored: s.target, replaced: actual, bytes: target?.byteLength ?? null },
      });
    });
  } finally {
    // One write for the whole operation, in step order; the files put back before a failure are recorded all the same.
    const records = steps.flatMap((s) => (done.has(s.path) ? [done.get(s.path)!.record] : []));
    if (records.length > 0) await store.appendMany(records);
  }
  const files = steps.map((s) => done.get(s.path)!.file);
  return { group, files, forced: ctx.force ? conflicts.map((c) => c.path) : [] };
}

const nothing = (what: string) =>
  new HarnessError(
    'E_REVERT_NOTHING',
    `${what} Nothing was changed. List the session's changes to see what can be reverted.`,
  );

/**
 * Refuses a revert reaching back to turn `turn` when a turn from there on lost records to pruning: the state
 * "before" it is no longer known, and restoring a later one instead would be a silent lie.
 */
function checkNotPruned(records: readonly CheckpointRecord[], turn: number, upTo = Infinity): void {
  const lost = records
    .filter((r) => r.kind === 'turn' && r.pruned && r.turn >= turn && r.turn <= upTo)
    .map((r) => r.turn);
  if (lost.length === 0) return;
  const last = Math.max(...lost);
  throw new HarnessError(
    'E_CHECKPOINT_PRUNED',
    `The checkpoints of turn ${lost.length === 1 ? last : `${Math.min(...lost)}–${last}`} were pruned to keep them under the size cap, so files cannot be put back to their state before turn ${turn}. Nothing was changed. Revert from turn ${last + 1} on, or restore from version control.`,
    { turn, prunedThrough: last },
  );
}

/** Writes of `records` still in effect (not reverted), in order. */
function liveWrites(records: readonly CheckpointRecord[]): CheckpointRecord[] {
  const reverted = revertedSeqs(records);
  return records.filter((r) => r.kind === 'write' && !reverted.has(r.seq));
}

/** Puts every file changed in turn `turn` or later back to its state before that turn. */
export async function revertSince(ctx: RevertContext, turn: number): Promise<RevertResult> {
  const records = await ctx.store.list(ctx.session);
  checkNotPruned(records, turn);
  const writes = liveWrites(records).filter((r) => r.turn >= turn);
  if (writes.length === 0) throw nothing(`No file changed by turn ${turn} or later is left to revert.`);
  return apply(ctx, plan(records, writes), { turn, tool: 'revert' });
}

/** Puts one file back to its state before turn `turn` (undoing that turn's and later turns' writes of it). */
export async function revertFile(ctx: RevertContext, path: string, turn: number): Promise<RevertResult> {
  const records = await ctx.store.list(ctx.session);
  checkNotPruned(records, turn);
  const writes = liveWrites(records).filter((r) => r.turn >= turn && r.path === path);
  if (writes.length === 0) throw nothing(`${path} was not changed by turn ${turn} or later (or is reverted already).`);
  return apply(ctx, plan(records, writes), { turn, tool: 'revert' });
}

/**
 * Puts every file turn `turn` changed back to its state before it. A file a later turn changed again is refused
 * (E_REVERT_LATER_CHANGES): undoing only the middle of its history would drop the later turn's work silently.
 */
export async function revertTurn(ctx: RevertContext, turn: number): Promise<RevertResult> {
  const records = await ctx.store.list(ctx.session);
  checkNotPruned(records, turn, turn);
  const live = liveWrites(records);
  const writes = live.filter((r) => r.turn === turn);
  if (writes.length === 0) throw nothing(`Turn ${turn} changed no file that is left to revert.`);
  const later = live.find((r) => r.turn > turn && writes.some((w) => w.path === r.path));
  if (later) {
    throw new HarnessError(
      'E_REVERT_LATER_CHANGES',
      `${later.path} was changed again by turn ${later.turn}, so turn ${turn} alone cannot be reverted. Nothing was changed. Revert everything since turn ${turn} instead, or revert turn ${later.turn} first.`,
      { path: later.path, turn, laterTurn: later.turn },
    );
  }
  return apply(ctx, plan(records, writes), { turn, tool: 'revert' });
}

/** Undoes a revert (or a redo): every file it put back gets the contents it replaced. */
export async function undoRevert(ctx: RevertContext, group: string): Promise<RevertResult> {
  const records = await ctx.store.list(ctx.session);
  const ops = records.filter((r) => r.kind === 'revert' && r.group === group);
  if (ops.length === 0)
    throw new HarnessError(
      'E_REVERT_NOT_FOUND',
      `There is no revert "${group}" in this session. List the session's changes to see its reverts.`,
      { group },
    );
  if (!activeGroups(records).has(group)) throw nothing(`The revert "${group}" is undone already.`);
  const newer = records.find((r) => r.kind !== 'turn' && r.seq > ops.at(-1)!.seq && ops.some((o) => o.path === r.path));
  if (newer) {
    throw new HarnessError(
      'E_REVERT_LATER_CHANGES',
      `${newer.path} was changed again after that revert (turn ${newer.turn}, ${newer.tool}), so undoing it would drop that change. Nothing was changed. Undo the later change first.`,
      { path: newer.path, group },
    );
  }
  const last = lastStates(records);
  const steps: Step[] = ops.map((r) => ({
    path: r.path,
    target: r.before,
    expected: last.get(r.path)!,
    covers: [r.seq],
  }));
  return apply(ctx, steps, { turn: ops[0]!.turn, tool: 'redo', undoes: group });
}
