// Adapts a SessionStore to the loop's CheckpointSink: each save appends only the messages added since the last
// save (or one `reset` entry when the history was rewritten) and moves the pointer, so its cost does not grow
// with the session's length. "Added since" compares by content, not identity: a before_save hook returns fresh but
// equal message objects, and those must not turn every checkpoint into a full `reset` (quadratic growth).
import type { CheckpointSink } from '../contracts';
import type { Message } from '../contracts';
import { cachedStableJson } from '../contracts';
import type { SessionEntry, SessionInfo, SessionStore } from './types';
import { assertValidHistory } from './validate-history';

export function createCheckpointSink(
  store: SessionStore,
  info: SessionInfo,
  saved: readonly Message[],
  path = info.id,
): CheckpointSink & { readonly info: SessionInfo } {
  let current = info;
  let last: Message[] = [...saved];
  return {
    path,
    get info() {
      return current;
    },
    async save(messages) {
      let prefix = last.length <= messages.length;
      for (let i = 0; prefix && i < last.length; i++) prefix = sameMessage(messages[i]!, last[i]!);
      const entries: SessionEntry[] = prefix
        ? messages.slice(last.length).map((message) => ({ kind: 'message', message }))
        : [{ kind: 'reset', messages: [...messages] }];
      // The saved prefix was validated (and is consistent) when it was saved: check only what is new.
      if (prefix) assertValidHistory(messages.slice(last.length));
      else assertValidHistory(messages);
      if (entries.length === 0) return;
      current = await store.commit(current.id, entries, current.checkpointSeq);
      last = [...messages];
    },
  };
}

/** Same object (the common path, no serialisation), else the same content in any key order. */
function sameMessage(a: Message, b: Message): boolean {
  return a === b || cachedStableJson(a) === cachedStableJson(b);
}
