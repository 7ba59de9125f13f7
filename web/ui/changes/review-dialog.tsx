// One file's change, reviewed: the state before the session against what is there now, in the shared merge view
// (side by side or inline), with Revert / Keep on each hunk and for the whole file. A hunk's revert writes the file
// with that hunk put back (chat.undo.revertPart, refused if the file changed while the person was looking); the
// whole file's revert goes through the panel, which handles the conflict question.
import { createEffect, createResource, createSignal, on, onCleanup, Show } from 'solid-js';
import type { ErrorData } from '../../core/contracts';
import type { FileVersions } from '../../core/page';
import type { UndoActions } from '../chat/undo-actions';
import { Dialog } from '../components/dialog';
import { errorText } from '../components/error-text';
import type { Translate } from '../i18n/i18n';
import { mountMergeView, type MergeHandle, type MergeMode } from '../merge';

const [preferredMode, setPreferredMode] = createSignal<MergeMode | null>(null);
/** The person's last choice in this tab; else inline on narrow screens, where two columns do not fit. */
export const diffMode = (): MergeMode => preferredMode() ?? (innerWidth < 900 ? 'inline' : 'side-by-side');

export function ReviewDialog(props: {
  t: Translate;
  undo: UndoActions;
  path: string;
  fileKept: boolean;
  isHunkKept: (key: string) => boolean;
  onKeepHunk: (key: string) => void;
  onKeepFile: () => void;
  onRevertFile: () => void;
  onClose: () => void;
}) {
  const t = props.t;
  const [versions, { refetch }] = createResource(
    () => ({ path: props.path, epoch: props.undo.epoch() }),
    ({ path }) => props.undo.fileVersions(path),
  );
  const [problem, setProblem] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [mergeFailed, setMergeFailed] = createSignal(false);
  let host: HTMLDivElement | undefined;
  let view: MergeHandle | null = null;
  let mounting = 0;

  async function revertHunk(v: FileVersions, content: string) {
    if (busy()) return;
    setBusy(true);
    setProblem(null);
    try {
      await props.undo.revertPart(v.path, content, v.currentSha);
    } catch (error) {
      // E_REVERT_CONFLICT here: the file changed under the view; showing it again is the answer.
      setProblem(errorText(error as ErrorData, 'E_REVERT_FAILED'));
      void refetch();
    } finally {
      setBusy(false);
    }
  }

  async function mount(v: FileVersions) {
    const n = ++mounting;
    view?.destroy();
    view = null;
    if (!host || v.unavailable) return;
    try {
      const handle = await mountMergeView(host, {
        a: v.before,
        b: v.current,
        path: v.path,
        mode: diffMode(),
        revertChunk: (_hunk, content) => void revertHunk(v, content),
        keepChunk: (hunk) => (props.onKeepHunk(hunk.key), view?.refresh()),
        isKept: props.isHunkKept,
        labels: {
          revert: t('changes.revertHunk'),
          keep: t('changes.keepHunk'),
          kept: t('changes.keptHunk'),
          hunk: (index, count) => t('changes.hunk', { index: index + 1, count }),
        },
        unchangedLines: t('changes.unchangedLines'),
      });
      if (n !== mounting) handle.destroy();
      else view = handle;
    } catch {
      setMergeFailed(true);
    }
  }

  createEffect(
    on(
      () => versions.latest,
      (v) => v && void mount(v),
    ),
  );
  onCleanup(() => {
    mounting++;
    view?.destroy();
  });

  function choose(mode: MergeMode) {
    setPreferredMode(mode);
    view?.setMode(mode);
  }

  const v = () => versions.latest;
  return (
    <Dialog
      title={t('changes.review', { path: props.path })}
      onClose={props.onClose}
      closeLabel={t('changes.close')}
      wide
    >
      <div class="review">
        <div class="review-toolbar">
          <div class="segmented" role="group" aria-label={t('changes.layout')}>
            <button
              type="button"
              class="segment"
              aria-pressed={diffMode() === 'side-by-side'}
              onClick={() => choose('side-by-side')}
            >
              {t('changes.sideBySide')}
            </button>
            <button
              type="button"
              class="segment"
              aria-pressed={diffMode() === 'inline'}
              onClick={() => choose('inline')}
            >
              {t('changes.inline')}
            </button>
          </div>
          <span class="review-spacer" />
          <Show when={!props.fileKept}>
            <button type="button" class="button small" onClick={() => (props.onKeepFile(), props.onClose())}>
              {t('changes.keepFile')}
            </button>
          </Show>
          <button
            type="button"
            class="button small danger-outline"
            disabled={busy()}
            onClick={() => props.onRevertFile()}
          >
            {t('changes.revertFile')}
          </button>
        </div>
        <Show when={problem()}>
          <p class="review-problem" role="alert">
            {problem()}
          </p>
        </Show>
        <Show when={versions.error}>
          <p class="review-problem" role="alert">
            {errorText(versions.error, 'E_CHANGE_NOT_FOUND')}
          </p>
        </Show>
        <Show when={v()?.unavailable}>{(why) => <p class="review-note">{t(`changes.unavailable.${why()}`)}</p>}</Show>
        <Show when={v() && !v()!.unavailable && v()!.before === null}>
          <p class="review-note">{t('changes.createdNote')}</p>
        </Show>
        <Show when={v() && !v()!.unavailable && v()!.current === null}>
          <p class="review-note">{t('changes.deletedNote')}</p>
        </Show>
        <Show when={mergeFailed()}>
          <p class="review-problem" role="alert">
            {t('changes.mergeFailed')}
          </p>
        </Show>
        <Show when={!v() && !versions.error}>
          <p class="review-note">{t('changes.loadingDiff')}</p>
        </Show>
        <div class="review-merge" ref={(el) => (host = el)} aria-busy={busy()} />
      </div>
    </Dialog>
  );
}
