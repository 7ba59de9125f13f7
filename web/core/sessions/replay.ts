import type { Message } from '../providers/types';
import type { SessionEntry } from './types';

/** The history a list of committed entries describes. */
export function replayEntries(entries: Iterable<SessionEntry>): Message[] {
  let messages: Message[] = [];
  for (const entry of entries) {
    if (entry.kind === 'message') messages.push(entry.message);
    else messages = [...entry.messages];
  }
  return messages;
}
