import { messageSchema } from '../hooks';
import type { Message } from '../contracts';
import { compileSchema } from '../contracts';
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

const checkEntry = compileSchema(
  {
    type: 'object',
    required: ['kind'],
    properties: { kind: { enum: ['message', 'reset'] } },
    allOf: [
      {
        if: { properties: { kind: { const: 'message' } } },
        then: { required: ['message'], properties: { message: messageSchema } },
      },
      {
        if: { properties: { kind: { const: 'reset' } } },
        then: { required: ['messages'], properties: { messages: { type: 'array', items: messageSchema } } },
      },
    ],
  },
  'entry',
);

/**
 * Why a stored value is not a SessionEntry (its first problem), or null when it is one. Stored data is read back
 * through this check, so a hand-edited or foreign record is reported instead of replayed into the model's history.
 */
export function entryProblem(value: unknown): string | null {
  return checkEntry(value)[0] ?? null;
}
