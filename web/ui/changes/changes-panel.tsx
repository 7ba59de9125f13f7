// The Changes tab of the side panel (issue 16): every file the open session changed, grouped by turn (newest
// first), with +/− lines, new / deleted / reverted / "changed by you since" marks; a file opens its diff for review
// (review-dialog.tsx); kept files collapse into one line. Reverts in effect are listed with "Undo revert"; after a
// revert a notice offers "Redo". Refreshes when the session changes or chat.undo.epoch() moves (a turn ended, a
// revert ran). The chat view portals it into the tab, so it shares the chat's controller.
import { createEffect, createMemo, createSignal, For, on, Show, type Resource } from 'solid-js';
import type { ErrorData } from '../../core/contracts';
import type { HarnessDb } from '../../core/page';
import type { RevertOp, SessionChanges } from '../../core/page';
import type { RevertResult } from '../../core/page';
import type { UndoActions } from '../chat/undo-actions';
import { errorText } from '../components/error-text';
import type { Translate } from '../i18n/i18n';
import { activeReverts, groupByTurn, keepKey, revertedPaths, type ListedFile } from './changes-model';
import { ConflictDialog, type Conflict } from './conflict-dialog';
import { readKept, saveKept, type KeptMarks } from './kept-store';
import { ReviewDialog } from './review-dialog';
import './changes.css';

export interface ChangesPanelProps {
  t: Translate;
  db: HarnessDb;
  workspaceId: string;
  sessionId: () => string | null;
  undo: UndoActions;
  /** From createSessionChanges: shared with the header's total. */
  changes: Resource<SessionChanges | null>;
  /** Reverts write files: not while a turn runs or when another tab holds the session. */
  idle: () => boolean;
}

export default function ChangesPanel(props: ChangesPanelProps) {
  const t = props.t;
  const changes = props.changes;
  const [kept, setKept] = createSignal<KeptMarks>({ files: [], hunks: [] });
  createEffect(
    on(props.sessionId, (id) => {
      setKept({ files: [], hunks: [] });
      if (id)
        void readKept(props.db, props.workspaceId, id).then((marks) => props.sessionId() === id && setKept(marks));
    }),
  );
  const [reviewing, setReviewing] = createSignal<string | null>(null);
  const [conflict, setConflict] = createSignal<{ op: RevertOp; conflict: Conflict } | null>(null);
  const [notice, setNotice] = createSignal<{ group: string; paths: string[] } | null>(null);
  const [problem, setProblem] = createSignal<string | null>(null);
  createEffect(
    on(props.sessionId, () => (setNotice(null), setProblem(null), setReviewing(null), setConflict(null)), {
      defer: true,
    }),
  );

  const current = () => changes.latest ?? null;
  const groups = createMemo(() => (current() ? groupByTurn(current()!) : []));
  const reverts = createMemo(() => (current() ? activeReverts(current()!) : []));
  const fileKept = (path: string) => {
    const c = current();
    return c !== null && kept().files.includes(keepKey(c, path));
  };

  function mark(update: (m: KeptMarks) => KeptMarks) {
    const id = props.sessionId();
    if (!id) return;
    const next = update(kept());
    setKept(next);
    void saveKept(props.db, props.workspaceId, id, next);
  }
  const keepFile = (path: string) => {
    const c = current();
    if (c) mark((m) => ({ ...m, files: [...m.files, keepKey(c, path)] }));
  };
  const keepHunk = (key: string) => mark((m) => ({ ...m, hunks: [...m.hunks, key] }));

  async function run(op: RevertOp, force?: boolean) {
    setProblem(null);
    let result: RevertResult;
    try {
      result = await props.undo.revert(op, force);
    } catch (error) {
      const e = error as ErrorData;
      if (e?.code === 'E_REVERT_CONFLICT') {
        const conflicts = (e.data as { conflicts?: Array<{ path: string }> } | undefined)?.conflicts ?? [];
        // The question replaces the review dialog: two stacked modals confuse focus and Escape.
        setReviewing(null);
        setConflict({ op, conflict: { paths: conflicts.map((c) => c.path) } });
      } else setProblem(t('changes.failed', { message: errorText(e, 'E_REVERT_FAILED') }));
      return;
    }
    setConflict(null);
    setReviewing(null);
    setNotice(op.kind === 'undo' ? null : { group: result.group, paths: result.files.map((f) => f.path) });
  }

  const fileRow = (file: ListedFile) => (
    <li class="changes-file" classList={{ reverted: file.reverted, kept: !file.reverted && fileKept(file.path) }}>
      <Show
        when={!file.reverted}
        fallback={
          <span class="changes-file-main">
            <span class="changes-path" title={file.path}>
              {file.path}
            </span>
          </span>
        }
      >
        <button
          type="button"
          class="changes-file-main"
          aria-label={t('changes.open', { path: file.path })}
          onClick={() => setReviewing(file.path)}
        >
          <span class="changes-path" title={file.path}>
            {file.path}
          </span>
          <Show when={file.added !== null}>
            <span class="changes-counts" aria-hidden="true">
              <span class="added">+{file.added}</span> <span class="removed">−{file.removed}</span>
            </span>
          </Show>
        </button>
      </Show>
      <span class="changes-marks">
        <Show when={file.change !== 'modified'}>
          <span class="badge">{file.change === 'created' ? t('changes.created') : t('changes.deleted')}</span>
        </Show>
        <Show when={file.reverted}>
          <span class="badge">{t('changes.reverted')}</span>
        </Show>
        <Show when={!file.reverted && fileKept(file.path)}>
          <span class="badge success">{t('changes.kept')}</span>
        </Show>
        <Show when={file.changedSince}>
          <span class="badge warning">{t('changes.changedSince')}</span>
        </Show>
        <Show when={file.otherTurns.length > 0}>
          <span class="changes-also">{t('changes.alsoTurns', { turns: file.otherTurns.join(', ') })}</span>
        </Show>
      </span>
    </li>
  );

  return (
    <section class="changes-panel panel" aria-label={t('changes.title')}>
      <Show when={notice()}>
        {(n) => (
          <div class="changes-notice" role="status">
            <span>
              {n().paths.length === 1
                ? t('changes.noticeOne', { path: n().paths[0]! })
                : t('changes.notice', { count: n().paths.length })}
            </span>
            <button
              type="button"
              class="link-button"
              disabled={!props.idle()}
              onClick={() => void run({ kind: 'undo', group: n().group })}
            >
              {t('changes.redo')}
            </button>
            <button type="button" class="link-button" onClick={() => setNotice(null)}>
              {t('changes.dismiss')}
            </button>
          </div>
        )}
      </Show>
      <Show when={problem()}>
        <p class="changes-problem" role="alert">
          {problem()}
        </p>
      </Show>
      <Show when={changes.error}>
        <p class="changes-problem" role="alert">
          {errorText(changes.error, 'E_CHANGES_FAILED')}
        </p>
      </Show>
      <Show
        when={props.sessionId()}
        fallback={
          <div class="empty-state">
            <p>{t('changes.noSession')}</p>
          </div>
        }
      >
        <Show when={current()} fallback={<p class="changes-empty">{t('changes.loading')}</p>}>
          <Show when={groups().length > 0} fallback={<p class="changes-empty">{t('changes.none')}</p>}>
            <For each={groups()}>
              {(group) => (
                <section class="changes-turn" aria-label={t('changes.turn', { turn: group.turn })}>
                  <h3 class="changes-turn-title">
                    {t('changes.turn', { turn: group.turn })} ·{' '}
                    {group.files.length === 1
                      ? t('changes.oneFile')
                      : t('changes.files', { count: group.files.length })}
                  </h3>
                  <ul class="changes-files">
                    <For each={group.files.filter((f) => f.reverted || !fileKept(f.path))}>{fileRow}</For>
                  </ul>
                  {/* Kept files fold away: reviewed, nothing left to decide. */}
                  <Show when={group.files.filter((f) => !f.reverted && fileKept(f.path))}>
                    {(keptFiles) => (
                      <Show when={keptFiles().length > 0}>
                        <details class="changes-kept">
                          <summary>{t('changes.keptCount', { count: keptFiles().length })}</summary>
                          <ul class="changes-files">
                            <For each={keptFiles()}>{fileRow}</For>
                          </ul>
                        </details>
                      </Show>
                    )}
                  </Show>
                </section>
              )}
            </For>
          </Show>
          <Show when={reverts().length > 0}>
            <section class="changes-turn" aria-label={t('changes.reverts')}>
              <h3 class="changes-turn-title">{t('changes.reverts')}</h3>
              <ul class="changes-files">
                <For each={reverts()}>
                  {(r) => (
                    <li class="changes-file">
                      <span class="changes-file-main changes-revert-text">
                        {revertedPaths(r).length === 1
                          ? t('changes.revertOfOne', { path: revertedPaths(r)[0]!, turn: r.turn })
                          : t('changes.revertOf', { count: revertedPaths(r).length, turn: r.turn })}
                      </span>
                      <button
                        type="button"
                        class="button small"
                        disabled={!props.idle()}
                        onClick={() => void run({ kind: 'undo', group: r.group })}
                      >
                        {t('changes.undoRevert')}
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </section>
          </Show>
        </Show>
      </Show>
      <Show when={reviewing()}>
        {(path) => {
          const file = () =>
            groups()
              .flatMap((g) => g.files)
              .find((f) => f.path === path() && !f.reverted);
          return (
            <ReviewDialog
              t={t}
              undo={props.undo}
              path={path()}
              fileKept={fileKept(path())}
              isHunkKept={(key) => kept().hunks.includes(key)}
              onKeepHunk={keepHunk}
              onKeepFile={() => keepFile(path())}
              onRevertFile={() => {
                const op = file()?.revert;
                if (op) void run(op);
              }}
              onClose={() => setReviewing(null)}
            />
          );
        }}
      </Show>
      <Show when={conflict()}>
        {(c) => (
          <ConflictDialog
            t={t}
            undo={props.undo}
            conflict={c().conflict}
            onKeepMine={() => setConflict(null)}
            onRevertAnyway={() => void run(c().op, true)}
          />
        )}
      </Show>
    </section>
  );
}
