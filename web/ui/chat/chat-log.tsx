// The scrolling conversation, top to bottom: notices about the session, the saved messages, the turn in flight, its
// approvals, and how the turn stands. It keeps the end in view while the person is there or a turn runs (once a
// frame at most), and keeps their place when earlier messages appear above.
import { createEffect, For, on, type Accessor } from 'solid-js';
import type { Locale } from '../i18n/i18n';
import { ApprovalCard } from './approval-card';
import type { ChatController } from './chat-controller';
import type { ChatTranslate } from './chat-i18n';
import type { ChatItem } from './chat-model';
import { LiveAnswer } from './live-answer';
import { MessageList } from './message-list';
import { MarkdownGrowth } from './message-parts';
import { SessionNotices } from './session-notices';
import { TurnStatus } from './turn-status';
import type { UndoEvents } from './undo-events';

export function ChatLog(props: {
  chat: ChatController;
  items: Accessor<ChatItem[]>;
  events: UndoEvents;
  ct: ChatTranslate;
  locale: Locale;
  /** Puts a prompt back into the message box ("Send again", "Edit prompt"). */
  onDraft: (text: string) => void;
  onFork: (index: number) => void;
  onRecover: () => void;
  onRewind: (index: number, text: string) => void;
}) {
  const chat = props.chat;
  const ct = props.ct;
  let log: HTMLDivElement | undefined;
  // Whether the person was at the end of the log before this update (measured on scroll, not after the update: a
  // tall error or card appearing at the end must not count as the person having scrolled away from it).
  let atEnd = true;
  const onLogScroll = () => {
    if (log) atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 160;
  };
  // One scroll per frame at most: reading scrollHeight forces a layout of the whole log, and a stream updates it
  // many times a frame (measured: 1.6 s of a 200 KB answer's main-thread time went to per-update scrolling).
  let scrollQueued = false;
  const followEnd = () => {
    if (!log || scrollQueued || !(atEnd || chat.busy())) return;
    scrollQueued = true;
    requestAnimationFrame(() => {
      scrollQueued = false;
      if (!log) return;
      log.scrollTop = log.scrollHeight;
      // Blocks that came into view replace their estimated size with the real one on this frame: look again.
      requestAnimationFrame(
        () => log && log.scrollHeight - log.scrollTop - log.clientHeight > 2 && (log.scrollTop = log.scrollHeight),
      );
    });
  };
  createEffect(on([props.items, chat.live, chat.approvals, chat.failure], followEnd));
  const keepPosition = (change: () => void) => {
    if (!log) return change();
    // Keep what the person is looking at where it is while earlier messages appear above it.
    const fromEnd = log.scrollHeight - log.scrollTop;
    change();
    requestAnimationFrame(() => log && (log.scrollTop = log.scrollHeight - fromEnd));
  };

  return (
    <MarkdownGrowth.Provider value={followEnd}>
      <div
        class="chat-log"
        ref={(el) => (log = el)}
        onScroll={onLogScroll}
        role="log"
        aria-label={ct('title')}
        aria-busy={chat.busy()}
      >
        <SessionNotices chat={chat} ct={ct} locale={props.locale} onAgain={props.onDraft} onRecover={props.onRecover} />
        <MessageList
          chat={chat}
          items={props.items}
          events={props.events}
          ct={ct}
          onFork={props.onFork}
          onRewind={props.onRewind}
          keepPosition={keepPosition}
          scrolledUp={() => !atEnd}
        />
        <LiveAnswer chat={chat} ct={ct} />
        <For each={chat.approvals()}>{(p) => <ApprovalCard pending={p} ct={ct} />}</For>
        <TurnStatus chat={chat} ct={ct} locale={props.locale} onEdit={props.onDraft} />
      </div>
    </MarkdownGrowth.Provider>
  );
}
