// The end of the log: how the last turn stands — its warnings (a replay notice as a context item), the controller's
// notice, "Continue" after a stopped answer, and a failed turn: a headline in words (its code and HTTP status small
// beside it), the sentence, Retry and "Edit message". A prompt nothing answered is saved with its error, so this
// shows after a reload too (ChatController.failure). A failed `/compact` has no prompt: it says the history is
// unchanged and offers neither.
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import type { Locale } from '../i18n/i18n';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import { ContextItem } from './context-item';
import { errorText } from './core-text';
import { failureDetail, failureHeadline } from './failure-words';
import { UserBubble } from './message-item';
import { ContinueAction } from './turn-notices';

export function TurnStatus(props: {
  chat: ChatController;
  ct: ChatTranslate;
  locale: Locale;
  onEdit: (prompt: string) => void;
}) {
  const chat = props.chat;
  const ct = props.ct;
  // Whether the last turn was a compaction-only one (`/compact`): its failure has no prompt to show, retry or edit.
  const [compactingTurn, setCompactingTurn] = createSignal(false);
  createEffect(on(chat.live, (l) => l && setCompactingTurn(l.compacting !== undefined && !l.compacting.auto)));
  const compactOnly = (f: { error: { code: string }; prompt: string }) =>
    f.prompt === '' && (compactingTurn() || f.error.code.startsWith('E_COMPACT'));
  // Said once: a compaction-only failure is the failure block, not also a warning line above it.
  const shownWarnings = () => {
    const f = chat.failure();
    return f && compactOnly(f) ? chat.warnings().filter((w) => w.code !== f.error.code) : chat.warnings();
  };
  return (
    <>
      <For each={shownWarnings()}>
        {(w) => (
          <Show
            when={w.code.startsWith('N_REPLAY')}
            fallback={
              <p class="chat-warning" role="status">
                {w.code.startsWith('E_COMPACT') ||
                (w.data as { compaction_failed?: boolean } | undefined)?.compaction_failed
                  ? ct('compact.failed', { code: w.code, message: w.message })
                  : ct('warning', { code: w.code, message: w.message })}
              </p>
            }
          >
            {/* A replay notice concerns what the model is given, like workspace content: a context item. */}
            <ContextItem context="replay" text={`${w.code}: ${w.message}`} ct={ct} />
          </Show>
        )}
      </For>
      <Show when={chat.notice()}>
        <p class="chat-notice" role="status">
          {chat.notice()}
        </p>
      </Show>
      <ContinueAction chat={chat} ct={ct} />
      <Show when={chat.failure()}>
        {(f) => (
          <>
            {/* A turn that failed before its first checkpoint never saved the prompt: keep it on screen. */}
            <Show when={!f().saved && !compactOnly(f())}>
              <UserBubble text={f().prompt} images={[]} ct={ct} />
            </Show>
            <div class="chat-error" role="alert">
              <Show
                when={compactOnly(f())}
                fallback={
                  <div class="chat-error-head">
                    <strong>{ct(failureHeadline(f().error))}</strong>
                    <Show when={!f().error.code.startsWith('STOP_')}>
                      <code class="chat-error-code">{failureDetail(f().error)}</code>
                    </Show>
                  </div>
                }
              >
                <strong>{ct('compact.failedTitle', { code: f().error.code })}</strong>
              </Show>
              {/* A compaction that was refused or failed left the history as it was: say so, with its code. */}
              <p>
                {compactOnly(f())
                  ? `${errorText(f().error, props.locale)} ${ct('compact.unchanged')}`
                  : f().error.code.startsWith('E_COMPACT')
                    ? ct('compact.failed', { code: f().error.code, message: errorText(f().error, props.locale) })
                    : errorText(f().error, props.locale) || ct('stopReason', { reason: f().stopReason })}
              </p>
              {/* A refused `/compact` has no prompt: retrying or editing would send an empty message. */}
              <Show when={!compactOnly(f())}>
                <div class="chat-error-actions">
                  <button type="button" class="button small" onClick={() => void chat.retry()}>
                    {ct('retry')}
                  </button>
                  <Show when={!f().saved || f().kept}>
                    <button
                      type="button"
                      class="button small"
                      onClick={() => {
                        if (f().kept) chat.replaceFailedPrompt();
                        props.onEdit(f().prompt);
                      }}
                    >
                      {ct('editPrompt')}
                    </button>
                  </Show>
                </div>
              </Show>
            </div>
          </>
        )}
      </Show>
    </>
  );
}
