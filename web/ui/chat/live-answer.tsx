// The turn in flight: the prompt until it is saved, the answers and tool calls of its steps so far, the summary a
// `/compact` is writing, and the streamed thinking and text of the open step (a typing mark before the first word,
// or the countdown to a retry of the model call).
import { createMemo, For, Show } from 'solid-js';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import { assistantItem } from './chat-model';
import { CompactingNote } from './compaction-divider';
import { Item, UserBubble } from './message-item';
import { Markdown, Thinking } from './message-parts';
import { RetryCountdown } from './retry-countdown';

/** What identifies an answer between the live and the saved list: its text and the ids of its calls. */
const answerKey = (m: { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string }> }) =>
  `${m.tool_calls?.map((c) => c.id).join(',') ?? ''}\u0000${m.content ?? ''}`;

export function LiveAnswer(props: { chat: ChatController; ct: ChatTranslate }) {
  const chat = props.chat;
  const ct = props.ct;
  // The answers of this turn already in the saved list are not shown again as live ones: the two lists change in
  // one batch at a checkpoint, but a copy of an answer on screen twice (live and saved) was seen in CI runs.
  const savedAnswers = createMemo(
    () =>
      new Set(
        chat
          .messages()
          .slice(-16)
          .flatMap((m) => (m.role === 'assistant' ? [answerKey(m)] : [])),
      ),
  );
  const liveItems = createMemo(() => {
    const l = chat.live();
    if (!l) return [];
    const saved = savedAnswers();
    return l.assistants.flatMap((m, i) =>
      saved.has(answerKey(m)) ? [] : [assistantItem(m, -1 - i, new Map(Object.entries(l.results)))],
    );
  });
  const liveText = () => {
    const text = chat.live()?.text ?? '';
    return text && !savedAnswers().has(answerKey({ role: 'assistant', content: text })) ? text : '';
  };
  return (
    <Show when={chat.live()}>
      {(l) => (
        <>
          <Show when={!l().saved}>
            <UserBubble text={l().prompt} images={[]} ct={ct} />
          </Show>
          <For each={liveItems()}>{(item) => <Item item={item} chat={chat} ct={ct} />}</For>
          {/* `/compact`: no prompt and no answer, only the summary being written; it lands as the divider. */}
          <Show when={l().compacting}>{(c) => <CompactingNote focus={c().focus} ct={ct} />}</Show>
          <Show
            when={
              !l().compacting &&
              (l().thinking || liveText() || (chat.approvals().length === 0 && Object.keys(l().running).length === 0))
            }
          >
            <article class="msg msg-assistant live" aria-live="polite">
              <Show when={l().thinking}>
                <Thinking text={l().thinking} live ct={ct} />
              </Show>
              <Show
                when={liveText()}
                fallback={
                  <Show when={l().retrying} fallback={<span class="typing" aria-label="…" />}>
                    {(r) => <RetryCountdown retry={r()} ct={ct} />}
                  </Show>
                }
              >
                <Markdown text={liveText()} ct={ct} />
              </Show>
            </article>
          </Show>
        </>
      )}
    </Show>
  );
}
