import { HarnessError } from '../errors';

/** The longest session title, in UTF-16 units; an export with a longer one would not import back. */
export const MAX_SESSION_TITLE = 500;

export function checkSessionTitle(title: unknown): asserts title is string {
  if (typeof title !== 'string' || title.length > MAX_SESSION_TITLE) {
    const what = typeof title === 'string' ? `has ${title.length} characters` : 'is not text';
    throw new HarnessError('E_SESSION_TITLE_INVALID', `The session title ${what}; a title is text of at most ${MAX_SESSION_TITLE} characters. Shorten it and try again.`, {
      length: typeof title === 'string' ? title.length : null,
    });
  }
}

/** "<title><suffix>" cut so it stays a valid title, never between the two halves of a surrogate pair. */
export function titleWithSuffix(title: string, suffix: string): string {
  let head = title.slice(0, Math.max(0, MAX_SESSION_TITLE - suffix.length));
  const last = head.charCodeAt(head.length - 1);
  if (head.length < title.length && last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}${suffix}`;
}
