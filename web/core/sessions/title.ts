import { HarnessError } from '../contracts';

/** The longest session title, in UTF-16 units; an export with a longer one would not import back. */
export const MAX_SESSION_TITLE = 500;

export function checkSessionTitle(title: unknown): asserts title is string {
  if (typeof title !== 'string' || title.length > MAX_SESSION_TITLE) {
    const what = typeof title === 'string' ? `has ${title.length} characters` : 'is not text';
    throw new HarnessError(
      'E_SESSION_TITLE_INVALID',
      `The session title ${what}; a title is text of at most ${MAX_SESSION_TITLE} characters. Shorten it and try again.`,
      {
        length: typeof title === 'string' ? title.length : null,
      },
    );
  }
}

/** "<title><suffix>" cut so it stays a valid title, never between the two halves of a surrogate pair. */
export function titleWithSuffix(title: string, suffix: string): string {
  let head = title.slice(0, Math.max(0, MAX_SESSION_TITLE - suffix.length));
  const last = head.charCodeAt(head.length - 1);
  if (head.length < title.length && last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  return `${head}${suffix}`;
}

const FORK_SUFFIX = / \(fork(?: (\d+))?\)$/;

/**
 * The title of a new fork of a session titled `title`: "<title> (fork)", then "(fork 2)", "(fork 3)"… so forks of
 * one conversation can be told apart in the list. A fork of a fork counts with its siblings ("A (fork)" forks into
 * "A (fork 2)", not "A (fork) (fork)"). `existing` are the titles already in the workspace.
 */
export function forkTitle(title: string, existing: Iterable<string>): string {
  const base = title.replace(FORK_SUFFIX, '');
  let highest = 0;
  for (const other of existing) {
    const m = FORK_SUFFIX.exec(other);
    if (m && other.slice(0, m.index) === base) highest = Math.max(highest, m[1] ? Number(m[1]) : 1);
  }
  return titleWithSuffix(base, highest === 0 ? ' (fork)' : ` (fork ${highest + 1})`);
}
