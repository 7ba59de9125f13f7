// A revert refused because the person (or another program) changed a file after the agent's last write
// (E_REVERT_CONFLICT): the three states side by side in words and a diff — what the agent left against what is there
// now, and what the revert would put back — then the person chooses. "Keep my edits" does nothing; only
// "Revert anyway" repeats the same operation with force. Their edit is never overwritten without that click.
import { createResource, createSignal, onCleanup, Show } from 'solid-js';
import type { FileVersions } from '../../core/page';
import type { UndoActions } from '../chat/undo-actions';
import { Dialog } from '../components/dialog';
import type { Translate } from '../i18n/i18n';
import { mountMergeView, type MergeHandle } from '../merge';
import { diffMode } from './review-dialog';

export interface Conflict {
  paths: string[];
}

export function ConflictDialog(props: {
  t: Translate;
  undo: UndoActions;
  conflict: Conflict;
  onKeepMine: () => void;
  onRevertAnyway: () => void;
}) {
  const t = props.t;
  const first = () => props.conflict.paths[0]!;
  const others = () => props.conflict.paths.slice(1);
  const [versions] = createResource(first, (path) => props.undo.fileVersions(path).catch(() => null));
  const [failed, setFailed] = createSignal(false);
  let view: MergeHandle | null = null;
  onCleanup(() => view?.destroy());

  async function mount(el: HTMLDivElement, v: FileVersions) {
    try {
      view = await mountMergeView(el, {
        a: v.after,
        b: v.current,
        path: v.path,
        mode: diffMode(),
        unchangedLines: t('changes.unchangedLines'),
      });
    } catch {
      setFailed(true);
    }
  }

  return (
    <Dialog
      title={t('changes.conflictTitle', { path: first() })}
      onClose={props.onKeepMine}
      closeLabel={t('changes.close')}
      wide
      footer={
        <>
          <button type="button" class="button" onClick={() => props.onKeepMine()}>
            {t('changes.keepMine')}
          </button>
          <button type="button" class="button danger" onClick={() => props.onRevertAnyway()}>
            {t('changes.revertAnyway')}
          </button>
        </>
      }
    >
      <p>{t('changes.conflictBody')}</p>
      <Show when={others().length > 0}>
        <p class="review-note">{t('changes.conflictMore', { count: others().length, paths: others().join(', ') })}</p>
      </Show>
      <Show when={versions()}>
        {(v) => (
          <>
            <Show when={v().before === null && !v().unavailable}>
              <p class="review-note">{t('changes.conflictBefore')}</p>
            </Show>
            <Show when={v().current === null && !v().unavailable}>
              <p class="review-note">{t('changes.conflictNowGone')}</p>
            </Show>
            <Show when={v().unavailable}>
              {(why) => <p class="review-note">{t(`changes.unavailable.${why()}`)}</p>}
            </Show>
            <Show when={!v().unavailable}>
              <div class="review-merge conflict-merge" ref={(el) => void mount(el, v())} />
            </Show>
          </>
        )}
      </Show>
      <Show when={failed()}>
        <p class="review-problem" role="alert">
          {t('changes.mergeFailed')}
        </p>
      </Show>
    </Dialog>
  );
}
