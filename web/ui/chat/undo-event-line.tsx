// One undo event in the conversation: a rewind ("Rewound to “…” — 3 files and the conversation"), a revert or a
// redo, as a quiet line between turns. A revert still in effect offers Redo (the undo of its revert group: the files
// go back to what the agent left; a rewound conversation stays rewound). A redo the person's later edits would
// overwrite is refused with E_REVERT_CONFLICT and offered again as "Redo anyway".
import { createSignal, Show } from 'solid-js';
import type { ErrorData } from '../../core/contracts';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import { RewindIcon } from './rewind-dialog';
import type { UndoEvent } from './rewind-model';

export function eventText(e: UndoEvent, ct: ChatTranslate): string {
  if (e.kind === 'rewind') {
    const files =
      e.files === 0
        ? ct('undoEvent.noFiles')
        : e.files === 1
          ? ct('undoEvent.oneFile')
          : ct('undoEvent.files', { count: e.files });
    if (e.mode === 'conversation') return ct('undoEvent.rewindConversation', { prompt: e.prompt });
    return ct(e.mode === 'both' ? 'undoEvent.rewindBoth' : 'undoEvent.rewindFiles', { prompt: e.prompt, files });
  }
  if (e.kind === 'revert')
    return e.path ? ct('undoEvent.revertedOne', { path: e.path }) : ct('undoEvent.reverted', { count: e.files });
  return e.path ? ct('undoEvent.redoneOne', { path: e.path }) : ct('undoEvent.redone', { count: e.files });
}

export function UndoEventLine(props: {
  event: UndoEvent;
  active: boolean;
  undo: Pick<ChatController['undo'], 'revert'>;
  ct: ChatTranslate;
  idle: boolean;
}) {
  const ct = props.ct;
  const [error, setError] = createSignal<ErrorData | null>(null);
  const [running, setRunning] = createSignal(false);
  const group = () => (props.event.kind === 'redo' ? undefined : props.event.group);
  async function redo(force?: boolean) {
    const g = group();
    if (!g || running()) return;
    setRunning(true);
    setError(null);
    try {
      await props.undo.revert({ kind: 'undo', group: g }, force);
    } catch (e) {
      const d = e as ErrorData;
      setError({ code: d?.code ?? 'E_REVERT_FAILED', message: d?.message ?? String(e) });
    } finally {
      setRunning(false);
    }
  }
  return (
    <div
      class="undo-event"
      data-testid="undo-event"
      data-kind={props.event.kind}
      role="group"
      aria-label={ct('undoEvent.label')}
    >
      <p class="undo-event-line">
        <RewindIcon />
        <span class="undo-event-text">{eventText(props.event, ct)}</span>
        <Show when={group() && !props.active}>
          <span class="undo-event-redone">· {ct('undoEvent.wasRedone')}</span>
        </Show>
        <Show when={group() && props.active && props.idle}>
          <button
            type="button"
            class="button small ghost"
            title={ct('undoEvent.redoHint')}
            disabled={running()}
            onClick={() => void redo()}
          >
            {ct('undoEvent.redo')}
          </button>
        </Show>
      </p>
      <Show when={error()}>
        {(e) => (
          <p class="undo-event-error" role="alert">
            {ct('rewind.failed', { code: e().code, message: e().message })}
            <Show when={e().code === 'E_REVERT_CONFLICT'}>
              {' '}
              <button type="button" class="button small danger" disabled={running()} onClick={() => void redo(true)}>
                {ct('undoEvent.redoAnyway')}
              </button>
            </Show>
          </p>
        )}
      </Show>
    </div>
  );
}
