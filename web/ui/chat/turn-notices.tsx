// Two small parts of the conversation that depend on where the turn stands: the banner of a session another tab is
// writing (with "Take over"), and "Continue" after an answer the person stopped.
import './turn-notices.css';
import { createMemo, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';

export function ReadOnlyBanner(props: { chat: ChatController; ct: ChatTranslate }) {
  const ct = props.ct;
  return (
    <Show when={props.chat.role() === 'reader'}>
      <div class="banner chat-banner read-only" role="region" aria-label={ct('readOnlyTitle')}>
        <div>
          <strong>{ct('readOnlyTitle')}</strong>
          <p>{ct('readOnlyBody')}</p>
        </div>
        <button type="button" class="button small primary" onClick={() => void props.chat.takeOver()}>
          {ct('takeOver')}
        </button>
      </div>
    </Show>
  );
}

/** Shown while the session ends with a stopped answer (it survives a reload: the mark is in the session). */
export function ContinueAction(props: { chat: ChatController; ct: ChatTranslate }) {
  const stopped = createMemo(() => {
    const last = props.chat.messages().at(-1);
    return last?.role === 'assistant' && last._stopped !== undefined;
  });
  return (
    <Show when={stopped() && !props.chat.busy() && props.chat.role() === 'writer'}>
      <div class="chat-notice continue" role="group" aria-label={props.ct('continueTurn')}>
        <span>{props.ct('continueHint')}</span>
        <button type="button" class="button small" onClick={() => void props.chat.continueTurn()}>
          {props.ct('continueTurn')}
        </button>
      </div>
    </Show>
  );
}
