// The top of the log, about the open session itself rather than a turn: a turn a closed tab left unfinished (what it
// had done, "Send again"), a session refused as damaged (with "Recover"), and the note after a recovery.
import { For, Show } from 'solid-js';
import type { JournalCall, TurnJournal } from '../../core/page';
import type { Locale } from '../i18n/i18n';
import type { ChatController } from './chat-controller';
import type { ChatKey, ChatTranslate } from './chat-i18n';
import { errorText } from './core-text';

export function SessionNotices(props: {
  chat: ChatController;
  ct: ChatTranslate;
  locale: Locale;
  onAgain: (prompt: string) => void;
  onRecover: () => void;
}) {
  const chat = props.chat;
  const ct = props.ct;
  return (
    <>
      <Show when={chat.interrupted()}>
        {(j) => (
          <Interrupted
            journal={j()}
            ct={ct}
            onAgain={() => props.onAgain(j().prompt)}
            onDismiss={() => void chat.dismissInterrupted()}
          />
        )}
      </Show>
      <Show when={chat.damaged()}>
        {(d) => (
          <div class="chat-error" role="alert" data-testid="damaged-session">
            <strong>{ct('damagedTitle', { code: d().error.code })}</strong>
            <p>{errorText(d().error, props.locale)}</p>
            <p class="field-hint">{ct('damagedHint')}</p>
            <div class="chat-error-actions">
              <button type="button" class="button small" onClick={() => props.onRecover()}>
                {ct('recover')}
              </button>
            </div>
          </div>
        )}
      </Show>
      <Show when={chat.recovered()}>
        {(r) => (
          <p class="chat-notice" role="status" data-testid="recovered-session">
            {ct('recovered', { title: r().from.title, kept: r().kept })}
            <Show when={r().cut > 0}> {ct('recoveredCut', { cut: r().cut })}</Show>
          </p>
        )}
      </Show>
    </>
  );
}

const CALL_STATE: Record<JournalCall['state'], ChatKey> = {
  pending: 'callPending',
  'waiting-approval': 'callWaiting',
  running: 'callRan',
  done: 'callDone',
  failed: 'callFailed',
  refused: 'callRefused',
};

function Interrupted(props: { journal: TurnJournal; ct: ChatTranslate; onAgain: () => void; onDismiss: () => void }) {
  const ct = props.ct;
  return (
    <div class="banner warning interrupted" role="alert" data-testid="interrupted-turn">
      <div>
        <strong>{ct('interruptedTitle')}</strong>
        <p>
          {ct('interruptedPrompt', {
            prompt: props.journal.prompt.length > 200 ? `${props.journal.prompt.slice(0, 199)}…` : props.journal.prompt,
          })}
        </p>
        <Show when={props.journal.calls.length > 0} fallback={<p>{ct('interruptedNone')}</p>}>
          <p>{ct('interruptedCalls')}</p>
          <ul class="interrupted-calls">
            <For each={props.journal.calls}>
              {(c) => (
                <li data-state={c.state}>
                  <code>{c.name}</code>
                  {c.summary ? ` — ${c.summary}` : ''}: {ct(CALL_STATE[c.state])}
                </li>
              )}
            </For>
          </ul>
        </Show>
        <p class="field-hint">{ct('interruptedNote')}</p>
      </div>
      <div class="banner-actions">
        <button type="button" class="button small" onClick={() => props.onAgain()}>
          {ct('sendAgain')}
        </button>
        <button type="button" class="button small ghost" onClick={() => props.onDismiss()}>
          {ct('dismiss')}
        </button>
      </div>
    </div>
  );
}
