// The last net before an abort leaves the runtime. Each site that builds a message quotes untrusted text through
// quoteUntrusted already; this keeps the promise (no plugin or worker can make an error large: seed 004 caps final
// text and errors at 1 MiB, and an abort is shown, logged and stored with the session) even if a future site
// forgets, and bounds `data`, which a worker may send in any shape.

import { QUOTE_MAX_CHARS, quoteUntrusted, type ErrorData } from '../errors';

/** Longest message an abort carries: a sentence or two plus a few quotes is far shorter. */
export const MAX_ERROR_MESSAGE_CHARS = 2048;
/** Entries kept of `data` (and of an array inside it). */
const MAX_DATA_ENTRIES = 8;

function boundValue(value: unknown, nested: boolean): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.length <= QUOTE_MAX_CHARS ? value : quoteUntrusted(value);
  if (Array.isArray(value) && !nested) return value.slice(0, MAX_DATA_ENTRIES).map((item) => boundValue(item, true));
  // Objects (and arrays below the first level) are described, never serialised: a deep value costs nothing here.
  return quoteUntrusted(value);
}

/** `{code, message, data}` with the message at most MAX_ERROR_MESSAGE_CHARS and data of a few small entries. */
export function boundedError(code: string, message: string, data?: Record<string, unknown>): ErrorData {
  const shown = message.length <= MAX_ERROR_MESSAGE_CHARS ? message : quoteUntrusted(message, MAX_ERROR_MESSAGE_CHARS);
  if (data === undefined) return { code, message: shown };
  const bounded: Record<string, unknown> = {};
  let kept = 0;
  for (const key in data) {
    if (!Object.hasOwn(data, key)) continue;
    if (kept++ === MAX_DATA_ENTRIES) break;
    bounded[key.length <= 40 ? key : quoteUntrusted(key, 40)] = boundValue(data[key], false);
  }
  return { code, message: shown, data: bounded };
}
