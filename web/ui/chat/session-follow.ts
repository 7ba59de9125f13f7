// Two tabs on one session: the writing tab tells the others what it streams and when it saved, over a
// BroadcastChannel per session; a reading tab shows the live turn and reloads the saved session. Only the
// writer (the Web Lock holder, web/core/agent-worker) ever writes; this is display.
import type { LiveTurn } from './live-turn';

export type FollowMessage = { type: 'live'; live: LiveTurn | null } | { type: 'saved' };

export interface SessionChannel {
  post(message: FollowMessage): void;
  close(): void;
}

const channelName = (sessionId: string) => `i:session-live:${sessionId}`;

/** The writer's side: live snapshots at most every `everyMs` (the last one always goes out), saved at once. */
export function broadcastSession(
  sessionId: string,
  everyMs = 100,
): SessionChannel & { live(turn: LiveTurn | null): void } {
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName(sessionId));
  let pending: LiveTurn | null | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const post = (message: FollowMessage) => channel?.postMessage(message);
  const flush = () => {
    timer = undefined;
    if (pending !== undefined) post({ type: 'live', live: pending });
    pending = undefined;
  };
  return {
    post(message) {
      if (message.type === 'saved') flush();
      post(message);
    },
    live(turn) {
      pending = turn;
      if (turn === null) {
        if (timer !== undefined) clearTimeout(timer);
        flush();
      } else timer ??= setTimeout(flush, everyMs);
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      channel?.close();
    },
  };
}

/** The reader's side. */
export function followSession(sessionId: string, onMessage: (message: FollowMessage) => void): SessionChannel {
  if (typeof BroadcastChannel === 'undefined') return { post: () => undefined, close: () => undefined };
  const channel = new BroadcastChannel(channelName(sessionId));
  channel.onmessage = (event: MessageEvent<FollowMessage>) => onMessage(event.data);
  return { post: (m) => channel.postMessage(m), close: () => channel.close() };
}
