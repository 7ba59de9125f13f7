// A model call waiting to be tried again: "Retrying in 8 s — rate limited by the provider", counting down to the
// moment the transport sends it (`retryAt`, the same clock in the Worker and the page), with the attempt and the
// code as quieter detail. A screen reader hears the sentence once per retry, not every second.
import { createSignal, onCleanup } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import { failureDetail, retryReason, secondsUntil } from './failure-words';
import type { RetryNote } from './live-turn';

export function RetryCountdown(props: { retry: RetryNote; ct: ChatTranslate }) {
  const [now, setNow] = createSignal(Date.now());
  const timer = setInterval(() => setNow(Date.now()), 250);
  onCleanup(() => clearInterval(timer));
  const reason = () => props.ct(retryReason(props.retry));
  const seconds = () => secondsUntil(props.retry.retryAt, now());
  const sentence = () =>
    seconds() > 0
      ? props.ct('retry.in', { seconds: seconds(), reason: reason() })
      : props.ct('retry.now', { reason: reason() });
  // Said once when the retry is announced: the figure it starts from.
  const announced = () =>
    props.ct('retry.in', { seconds: secondsUntil(props.retry.retryAt, Date.now()), reason: reason() });
  return (
    <div class="retry-countdown">
      <span class="visually-hidden" role="status">
        {announced()}
      </span>
      <span class="retry-spinner" aria-hidden="true" />
      <span class="retry-text" aria-hidden="true">
        {sentence()}
      </span>
      <span class="retry-detail">
        {props.ct('retry.attempt', { attempt: props.retry.attempt, max: props.retry.maxAttempts })} ·{' '}
        <code>{failureDetail({ code: props.retry.code, data: { status: props.retry.status } })}</code>
      </span>
    </div>
  );
}
