// The conversation as saved: "Nothing here yet" in an empty session, "Show earlier" above a long one (the last
// SHOWN_AT_FIRST items at first; scrolling up to it shows as many again), and each item with the undo event lines
// (rewinds, reverts, redos) placed before the prompt they follow.
import { createEffect, createMemo, createSignal, For, on, onCleanup, Show, type Accessor } from 'solid-js';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import type { ChatItem } from './chat-model';
import { Item } from './message-item';
import { RewindContext } from './rewind-dialog';
import { placeEvents } from './rewind-model';
import { UndoEventLine } from './undo-event-line';
import type { UndoEvents } from './undo-events';

/** Items a long session shows when it opens; scrolling to the top shows as many again. */
const SHOWN_AT_FIRST = 80;

/**
 * Shows earlier messages when the button scrolls into view because the person scrolled up (`scrolledUp`), without a
 * click; not when it is simply visible (a short log, or the moment a session opens, before it scrolls to its end).
 */
function observeEarlier(button: HTMLElement, show: () => void, scrolledUp: () => boolean) {
  if (typeof IntersectionObserver === 'undefined') return;
  const observer = new IntersectionObserver(
    (entries) => entries.some((e) => e.isIntersecting) && scrolledUp() && show(),
    { rootMargin: '200px 0px 0px 0px' },
  );
  observer.observe(button);
  onCleanup(() => observer.disconnect());
}

export function MessageList(props: {
  chat: ChatController;
  items: Accessor<ChatItem[]>;
  events: UndoEvents;
  ct: ChatTranslate;
  onFork: (index: number) => void;
  onRewind: (index: number, text: string) => void;
  /** Runs a change that adds items above, keeping what the person is looking at where it is. */
  keepPosition: (change: () => void) => void;
  scrolledUp: () => boolean;
}) {
  const chat = props.chat;
  const ct = props.ct;
  // A long session shows its last SHOWN_AT_FIRST items until the person scrolls up to the rest (opening a
  // 1,000-message session renders ~80).
  const [shown, setShown] = createSignal(SHOWN_AT_FIRST);
  createEffect(on(chat.sessionId, () => setShown(SHOWN_AT_FIRST)));
  const hidden = () => Math.max(0, props.items().length - shown());
  const visibleItems = createMemo(() => (hidden() > 0 ? props.items().slice(hidden()) : props.items()));
  const showEarlier = () => props.keepPosition(() => setShown((n) => n + SHOWN_AT_FIRST));

  const placedEvents = createMemo(() => placeEvents(chat.messages(), props.events.events()));
  const eventsAt = (at: number | 'end') => (
    <For each={placedEvents().get(at) ?? []}>
      {(e) => (
        <UndoEventLine
          event={e}
          active={'group' in e && e.group !== undefined && props.events.active().has(e.group)}
          undo={chat.undo}
          ct={ct}
          idle={!chat.busy() && chat.role() === 'writer'}
        />
      )}
    </For>
  );

  return (
    <>
      <Show when={props.items().length === 0 && !chat.live() && !chat.damaged()}>
        <p class="chat-empty">{ct('empty')}</p>
      </Show>
      <Show when={hidden() > 0}>
        <button
          type="button"
          class="button small ghost show-earlier"
          ref={(el) => observeEarlier(el, showEarlier, props.scrolledUp)}
          onClick={showEarlier}
        >
          {ct('showEarlier', { count: hidden() })}
        </button>
      </Show>
      <RewindContext.Provider value={{ open: (index, text) => props.onRewind(index, text) }}>
        <For each={visibleItems()}>
          {(item) => (
            <>
              {eventsAt(item.index)}
              <Item item={item} chat={chat} ct={ct} onFork={props.onFork} />
            </>
          )}
        </For>
      </RewindContext.Provider>
      {eventsAt('end')}
    </>
  );
}
