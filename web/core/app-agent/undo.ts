// Undo in the app (issue 16), over the checkpoint store the turns fill: what a session changed (per file, with
// +/− lines), the versions of one file for a diff (before the session's changes, what the agent left, what is there
// now), reverts (a file, a turn, everything since a turn, a file to given contents — one hunk — and the undo of a
// revert), and "Rewind to here": the conversation, the files, or both, back to before a prompt.
import { diffLines } from 'diff';
import {
  changesOf,
  currentState,
  revertFile,
  revertSince,
  revertTurn,
  undoRevert,
  revertedSeqs,
  ABSENT,
  sha256Hex,
  type ChangeRow,
  type CheckpointRecord,
  type CheckpointStore,
  type RevertResult,
  type RevertRow,
} from '../checkpoints';
import { HarnessError } from '../contracts';
import type { WorkspaceFs } from '../contracts';
import type { Message } from '../contracts';
import type { SessionStore } from '../sessions';

/** Files larger than this are listed but not diffed (their versions are not sent to the page). */
export const MAX_DIFF_BYTES = 2 * 1024 * 1024;

export interface FileChange {
  path: string;
  /** From the state before the session's first live change to what the agent left. */
  change: ChangeRow['change'];
  /** Turns that changed it (live changes only). */
  turns: number[];
  /** Lines added / removed (null when a version is binary, too large or no longer stored). */
  added: number | null;
  removed: number | null;
  /** The person (or another program) changed the file since the agent's last write. */
  changedSince: boolean;
}

export interface SessionChanges {
  /** Every write, in order (reverted ones flagged), and every revert operation. */
  rows: ChangeRow[];
  reverts: RevertRow[];
  /** Files with live changes, in the order they were first changed. */
  files: FileChange[];
  totals: { files: number; added: number; removed: number };
}

export interface FileVersions {
  path: string;
  /** Text of each version; null when the file did not exist. `binary`: not UTF-8 text; `missing`: pruned. */
  before: string | null;
  after: string | null;
  current: string | null;
  /** SHA-256 of what is there now (a partial revert must find it unchanged). */
  currentSha: string;
  unavailable?: 'binary' | 'too-large' | 'missing';
}

export type RevertOp =
  | { kind: 'file'; path: string; turn: number }
  | { kind: 'turn'; turn: number }
  | { kind: 'since'; turn: number }
  | { kind: 'undo'; group: string };

export type RewindMode = 'both' | 'files' | 'conversation';

export interface RewindResult {
  /** The conversation now ends before the prompt (conversation, both). */
  messages: number | null;
  /** The files reverted (files, both); null when the turn changed none. */
  files: RevertResult | null;
  /** The prompt that was rewound, for the composer. */
  prompt: Message;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export function createUndo(o: { checkpoints: CheckpointStore; sessions: SessionStore; fs: () => WorkspaceFs }) {
  const ctx = (session: string, force?: boolean) => ({
    store: o.checkpoints,
    fs: o.fs(),
    session,
    ...(force ? { force } : {}),
  });

  async function text(session: string, sha: string): Promise<string | null | 'missing' | 'binary'> {
    if (sha === ABSENT) return null;
    const bytes = await o.checkpoints.getBlob(session, sha);
    if (!bytes) return 'missing';
    try {
      return decoder.decode(bytes);
    } catch {
      return 'binary';
    }
  }

  /**
   * Per path with live writes: the first live write (its `before` is where the session started) and the last record
   * of the path (its `after` is what the session left: the agent's write, or a partial revert of it).
   */
  function spans(records: readonly CheckpointRecord[]) {
    const reverted = revertedSeqs(records);
    const out = new Map<string, { first: CheckpointRecord; last: CheckpointRecord; turns: Set<number> }>();
    for (const r of records) {
      if (r.kind === 'turn') continue;
      const span = out.get(r.path);
      if (r.kind === 'write' && !reverted.has(r.seq)) {
        if (span) span.turns.add(r.turn);
        else out.set(r.path, { first: r, last: r, turns: new Set([r.turn]) });
      }
      const now = out.get(r.path);
      if (now) now.last = r;
    }
    // A path whose writes were all reverted by a later full revert has no live write: it is not listed.
    return out;
  }

  async function changes(session: string): Promise<SessionChanges> {
    const records = await o.checkpoints.list(session);
    const { changes: rows, reverts } = changesOf(records);
    const files: FileChange[] = [];
    const fs = o.fs();
    for (const [path, { first, last, turns }] of spans(records)) {
      const change = first.before === ABSENT ? 'created' : last.after === ABSENT ? 'deleted' : 'modified';
      let added: number | null = null;
      let removed: number | null = null;
      const small = (first.beforeBytes ?? 0) <= MAX_DIFF_BYTES && (last.afterBytes ?? 0) <= MAX_DIFF_BYTES;
      const [a, b] = small
        ? await Promise.all([text(session, first.before), text(session, last.after)])
        : ['missing', 'missing'];
      if (a !== 'missing' && a !== 'binary' && b !== 'missing' && b !== 'binary') {
        added = removed = 0;
        for (const part of diffLines(a ?? '', b ?? '')) {
          if (part.added) added += part.count ?? 0;
          else if (part.removed) removed += part.count ?? 0;
        }
      }
      const now = await currentState(fs, path).catch(() => null);
      files.push({ path, change, turns: [...turns], added, removed, changedSince: now !== null && now !== last.after });
    }
    const totals = {
      files: files.length,
      added: files.reduce((n, f) => n + (f.added ?? 0), 0),
      removed: files.reduce((n, f) => n + (f.removed ?? 0), 0),
    };
    return { rows, reverts, files, totals };
  }

  async function versions(session: string, path: string): Promise<FileVersions> {
    const span = spans(await o.checkpoints.list(session)).get(path);
    if (!span)
      throw new HarnessError(
        'E_CHANGE_NOT_FOUND',
        `${path} has no change of this session left to show (it was never changed, or every change is reverted).`,
        { path },
      );
    const fs = o.fs();
    const stat = await fs.stat(path);
    const currentBytes = stat && !stat.directory ? await fs.readBytes(path) : null;
    const currentSha = currentBytes ? await sha256Hex(currentBytes) : ABSENT;
    const big = [span.first.beforeBytes, span.last.afterBytes, currentBytes?.byteLength ?? 0].some(
      (n) => (n ?? 0) > MAX_DIFF_BYTES,
    );
    if (big) return { path, before: null, after: null, current: null, currentSha, unavailable: 'too-large' };
    let current: string | null | 'binary' = null;
    if (currentBytes) {
      try {
        current = decoder.decode(currentBytes);
      } catch {
        current = 'binary';
      }
    }
    const [before, after] = await Promise.all([text(session, span.first.before), text(session, span.last.after)]);
    for (const v of [before, after, current]) {
      if (v === 'missing' || v === 'binary')
        return { path, before: null, after: null, current: null, currentSha, unavailable: v };
    }
    return {
      path,
      before: before as string | null,
      after: after as string | null,
      current: current as string | null,
      currentSha,
    };
  }

  /**
   * Puts `path` to `content` as a partial revert (one hunk of the session's change undone), recorded like a revert so
   * it can be undone and later reverts stay consistent. Refused when the file no longer holds `expectedSha`.
   */
  async function revertPart(
    session: string,
    path: string,
    content: string,
    expectedSha: string,
  ): Promise<RevertResult> {
    const span = spans(await o.checkpoints.list(session)).get(path);
    if (!span)
      throw new HarnessError('E_CHANGE_NOT_FOUND', `${path} has no change of this session left to revert.`, { path });
    const fs = o.fs();
    const stat = await fs.stat(path);
    const held = stat && !stat.directory ? await fs.readBytes(path) : null;
    const actual = held ? await sha256Hex(held) : ABSENT;
    if (actual !== expectedSha) {
      throw new HarnessError(
        'E_REVERT_CONFLICT',
        `${path} changed while you were looking at it. Nothing was reverted. Look at the file again and choose the part to revert.`,
        { path, expected: expectedSha, actual, conflicts: [{ path, expected: expectedSha, actual }] },
      );
    }
    const bytes = new TextEncoder().encode(content);
    const replaced = held ? await o.checkpoints.putBlob(session, held) : ABSENT;
    const target = await o.checkpoints.putBlob(session, bytes);
    await fs.writeBytes(path, bytes);
    const group = `p${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
    await o.checkpoints.append({
      kind: 'revert',
      session,
      turn: span.last.turn,
      step: 0,
      callId: group,
      tool: 'revert',
      path,
      before: replaced,
      after: target,
      beforeBytes: held?.byteLength ?? null,
      afterBytes: bytes.byteLength,
      at: Date.now(),
      group,
      covers: [],
    });
    return { group, files: [{ path, restored: target, replaced: actual, bytes: bytes.byteLength }], forced: [] };
  }

  async function revert(session: string, op: RevertOp, force?: boolean): Promise<RevertResult> {
    const c = ctx(session, force);
    switch (op.kind) {
      case 'file':
        return revertFile(c, op.path, op.turn);
      case 'turn':
        return revertTurn(c, op.turn);
      case 'since':
        return revertSince(c, op.turn);
      case 'undo':
        return undoRevert(c, op.group);
    }
  }

  /** The turn a prompt started, from its `_turn` id and the turn's undo marker. */
  async function turnOf(session: string, prompt: Message): Promise<number | null> {
    const id = prompt.role === 'user' ? prompt._turn : undefined;
    if (!id) return null;
    const marker = (await o.checkpoints.list(session)).find((r) => r.kind === 'turn' && r.callId === id);
    return marker?.turn ?? null;
  }

  async function rewind(session: string, index: number, mode: RewindMode, force?: boolean): Promise<RewindResult> {
    const loaded = await o.sessions.load(session);
    const prompt = loaded.messages[index];
    if (!prompt || prompt.role !== 'user' || prompt._meta !== undefined) {
      throw new HarnessError(
        'E_REWIND_NOT_A_PROMPT',
        'Rewind works from one of your messages. Choose “Rewind to here” on the message to go back to.',
        { index },
      );
    }
    let files: RevertResult | null = null;
    if (mode !== 'conversation') {
      const turn = await turnOf(session, prompt);
      if (turn === null) {
        throw new HarnessError(
          'E_REWIND_NO_CHECKPOINT',
          'This message has no undo record (it was sent before undo existed, or its records were pruned). Rewind the conversation only, or revert files from the Changes panel.',
          { index },
        );
      }
      const live = spans(await o.checkpoints.list(session));
      if ([...live.values()].some((s) => [...s.turns].some((t) => t >= turn)))
        files = await revertSince(ctx(session, force), turn);
    }
    let messages: number | null = null;
    if (mode !== 'files') {
      // The files first: a conflict refuses before the conversation changes, so the two never disagree.
      try {
        await o.sessions.commit(
          session,
          [{ kind: 'reset', messages: loaded.messages.slice(0, index) }],
          loaded.info.checkpointSeq,
        );
      } catch (error) {
        // Files and conversation go back together or not at all: put the files back as they were, then report.
        if (files) await undoRevert(ctx(session, true), files.group).catch(() => undefined);
        throw error;
      }
      messages = index;
    }
    return { messages, files, prompt };
  }

  return { changes, versions, revert, revertPart, rewind };
}
