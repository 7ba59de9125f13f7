// `i --session-name NAME --changes [--json]`, `--revert [TURN] [--force]` and `--redo [--force]`: what the session's
// turns changed in the project folder, putting it back, and undoing that (issue 16). The records are the session folder's checkpoints
// (DIR/.i/sessions/NAME/checkpoints, web/core/checkpoints); every headless turn with --session-name writes them.
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import {
  changesOf,
  revertSince,
  startTurnCheckpoints,
  undoRevert,
  type ChangeRow,
  type CheckpointEvent,
  type RevertResult,
  type TurnCheckpoints,
} from '../checkpoints';
import { createCommandRecorder, createNodeCheckpointStore } from '../checkpoints/node';
import { escapeControls, HarnessError, stringifyForTerminal, type ErrorData } from '../contracts';
import { protectWrites } from '../contracts';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { CliArgs } from './args';

/** Refusals of a revert that ran but changed nothing: exit 1 like a failed turn (usage errors stay 2). */
const REFUSED = new Set([
  'E_REVERT_CONFLICT',
  'E_REVERT_LATER_CHANGES',
  'E_REVERT_NOTHING',
  'E_CHECKPOINT_PRUNED',
  'E_CHECKPOINT_MISSING',
]);

const sessionsRoot = (workspace: string) => join(workspace, '.i', 'sessions');

/**
 * The checkpoints of one headless turn; warnings (pruning, a write that could not be recorded) go to `warn`. Contents
 * of this session no record names (a write that failed, a crash between storing and recording) are removed first:
 * one writer per session, and no turn of it runs yet.
 */
export async function headlessCheckpoints(
  workspace: string,
  session: string,
  warn: (text: string) => void,
): Promise<TurnCheckpoints> {
  const store = createNodeCheckpointStore({ sessionsRoot: sessionsRoot(workspace) });
  await store.sweepOrphans(session);
  const onEvent = (e: CheckpointEvent) => {
    if (e.type === 'pruned') {
      const turns = Object.entries(e.pruned.throughTurn)
        .map(([s, t]) => `"${s}" up to turn ${t}`)
        .join(', ');
      warn(
        `checkpoints over the size cap: the oldest ${e.pruned.records} record(s) were pruned (${turns}); files cannot be reverted to before those turns any more.`,
      );
    } else if (e.type === 'untracked') {
      warn(
        `${e.path} was changed but its new state could not be recorded (${e.error.code}: ${e.error.message}); --revert cannot check it for later edits.`,
      );
    }
  };
  const turn = await startTurnCheckpoints({ store, session, onEvent });
  // What a command changes (the shell tool) is recorded too: a shadow git repository in the session's checkpoints
  // folder snapshots the workspace before and after each command (web/core/checkpoints/command-changes.ts).
  const commands = createCommandRecorder({
    store,
    session,
    turn: turn.turn,
    root: workspace,
    shadowDir: join(sessionsRoot(workspace), session, 'checkpoints', 'shadow.git'),
    onEvent,
  });
  // No command of this session runs yet: older versions in the shadow may go (a failure only costs disk space).
  await commands.tidy().catch(() => undefined);
  return { ...turn, commandChangesFor: commands.commandChangesFor };
}

const size = (n: number | null) => (n === null ? '-' : `${n}`);

function changesText(session: string, rows: ChangeRow[], reverts: ReturnType<typeof changesOf>['reverts']): string {
  if (rows.length === 0) return `The session "${session}" has changed no file (through write, edit or plugins).\n`;
  const line = (t: string) => escapeControls(t, { keepLayout: false });
  const out: string[] = [];
  let turn = -1;
  for (const r of rows) {
    if (r.turn !== turn) {
      turn = r.turn;
      out.push(`turn ${turn}:`);
    }
    out.push(
      `  ${r.change.padEnd(8)} ${line(r.path)}  ${size(r.beforeBytes)} -> ${size(r.afterBytes)} bytes  ${line(r.tool)}${r.reverted ? '  (reverted)' : ''}`,
    );
  }
  for (const g of reverts)
    out.push(
      `${g.tool === 'redo' ? 'redo (undid a revert)' : `revert since turn ${g.turn}`}: ${g.paths.map(line).join(', ')}${g.active ? '' : g.tool === 'redo' ? '  (undone)' : '  (undone by a redo)'}`,
    );
  return `${out.join('\n')}\n`;
}

const redoText = (r: RevertResult) =>
  `Undid the last revert: ${r.files.length} file(s) have the contents it replaced again:\n` +
  r.files
    .map(
      (f) =>
        `  ${escapeControls(f.path, { keepLayout: false })}  ${f.restored === 'absent' ? 'deleted' : f.replaced === 'absent' ? 'recreated' : 'restored'}${r.forced.includes(f.path) ? '  (your changes to it were overwritten: --force)' : ''}`,
    )
    .join('\n') +
  '\n';

const revertText = (turn: number, r: RevertResult) =>
  `Reverted ${r.files.length} file(s) changed by turn ${turn} and later:\n` +
  r.files
    .map(
      (f) =>
        `  ${escapeControls(f.path, { keepLayout: false })}  ${f.restored === 'absent' ? 'deleted (it was created)' : f.replaced === 'absent' ? 'recreated' : 'restored'}${r.forced.includes(f.path) ? '  (your changes to it were overwritten: --force)' : ''}`,
    )
    .join('\n') +
  '\n';

/**
 * Runs --changes, --revert or --redo. `workspace` resolves -C (throws the usual E_WORKSPACE_INVALID); `fail` prints an
 * error the way the rest of `i` does and returns the exit code.
 */
export async function runChangesCommand(
  io: { stdout(text: string): void },
  args: CliArgs,
  workspace: () => Promise<string>,
  fail: (error: ErrorData, code: number) => number,
): Promise<number> {
  const session = args.sessionName!;
  let dir: string;
  try {
    dir = await workspace();
    if (
      !(await fsp.stat(join(sessionsRoot(dir), session)).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    ) {
      throw new HarnessError(
        'E_SESSION_NOT_FOUND',
        `There is no session "${session}" in ${join(sessionsRoot(dir), session)}. Check --session-name and -C.`,
        { session },
      );
    }
  } catch (error) {
    return fail(HarnessError.isInstance(error) ? error.toJSON() : { code: 'E_USAGE', message: String(error) }, 2);
  }
  const store = createNodeCheckpointStore({ sessionsRoot: sessionsRoot(dir) });
  try {
    const records = await store.list(session);
    const { changes, reverts } = changesOf(records);
    if (args.changes) {
      if (args.json) {
        const json = changes.map((c) => ({
          path: c.path,
          turn: c.turn,
          step: c.step,
          tool: c.tool,
          call_id: c.callId,
          change: c.change,
          bytes_before: c.beforeBytes,
          bytes_after: c.afterBytes,
          reverted: c.reverted,
        }));
        io.stdout(
          `${stringifyForTerminal({ type: 'changes', session, changes: json, reverts: reverts.map((g) => ({ group: g.group, tool: g.tool, turn: g.turn, paths: g.paths, active: g.active, ...(g.undoes ? { undoes: g.undoes } : {}) })) })}\n`,
        );
      } else io.stdout(changesText(session, changes, reverts));
      return 0;
    }
    const fs = protectWrites(await createNodeWorkspaceFs({ root: dir, access: 'read-write' }), {
      allowGitWrites: args.allowGitWrites,
    });
    if (args.revert === 'redo') {
      // The newest revert (not itself a redo) still in effect: what the last --revert (or the app's Revert) did.
      const last = reverts.filter((g) => g.tool !== 'redo' && g.active).at(-1);
      if (!last)
        throw new HarnessError(
          'E_REVERT_NOTHING',
          `The session "${session}" has no revert in effect to undo. Nothing was changed. See its changes and reverts with --changes.`,
          { session },
        );
      const result = await undoRevert({ store, fs, session, force: args.force }, last.group);
      if (args.json)
        io.stdout(
          `${stringifyForTerminal({ type: 'redone', session, undid: last.group, group: result.group, files: result.files.map((f) => ({ path: f.path, restored: f.restored, replaced: f.replaced, bytes: f.bytes })), forced: result.forced })}\n`,
        );
      else io.stdout(redoText(result));
      return 0;
    }
    // Default: the newest turn that still has changes in effect, so repeated --revert walks back turn by turn.
    const live = changes.filter((c) => !c.reverted);
    const turn = args.revert === 'last' ? live.at(-1)?.turn : args.revert!;
    if (turn === undefined)
      throw new HarnessError(
        'E_REVERT_NOTHING',
        `The session "${session}" has no change left to revert. Nothing was changed. See them with --changes.`,
        { session },
      );
    const result = await revertSince({ store, fs, session, force: args.force }, turn);
    if (args.json)
      io.stdout(
        `${stringifyForTerminal({ type: 'reverted', session, turn, group: result.group, files: result.files.map((f) => ({ path: f.path, restored: f.restored, replaced: f.replaced, bytes: f.bytes })), forced: result.forced })}\n`,
      );
    else io.stdout(revertText(turn, result));
    return 0;
  } catch (error) {
    const e = HarnessError.isInstance(error)
      ? error.toJSON()
      : { code: 'E_CHECKPOINT_FAILED', message: `The checkpoints could not be read or applied (${String(error)}).` };
    if (e.code === 'E_REVERT_CONFLICT')
      e.message = e.message.replace('revert anyway with force (headless: --force)', 'revert anyway with --force');
    return fail(e, REFUSED.has(e.code) ? 1 : 2);
  }
}
