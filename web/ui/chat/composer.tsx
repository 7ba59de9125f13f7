// The message box: Enter sends, Shift+Enter adds a line; Stop while a turn runs.
import { createUniqueId, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';

export function Composer(props: { busy: boolean; disabled: boolean; value: string; onInput: (v: string) => void; onSend: () => void; onStop: () => void; ct: ChatTranslate }) {
  const id = createUniqueId();
  const ct = props.ct;
  const submit = (e: Event) => {
    e.preventDefault();
    if (!props.busy && !props.disabled && props.value.trim()) props.onSend();
  };
  return (
    <form class="composer" onSubmit={submit}>
      <label for={id} class="visually-hidden">
        {ct('message')}
      </label>
      <textarea
        id={id}
        rows={3}
        placeholder={ct('placeholder')}
        value={props.value}
        disabled={props.disabled}
        onInput={(e) => props.onInput(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) submit(e);
        }}
      />
      <Show
        when={props.busy}
        fallback={
          <button type="submit" class="button primary" disabled={props.disabled || !props.value.trim()}>
            {ct('send')}
          </button>
        }
      >
        <button type="button" class="button danger" onClick={() => props.onStop()}>
          {ct('stop')}
        </button>
      </Show>
    </form>
  );
}
