// The sidebar's session list as data: sessions grouped by day (today, yesterday, the previous 7 days, then by
// month), short relative times, and the search over titles and conversation text. Pure, so it is unit-tested in Node.
import type { Message } from '../../core/contracts';

export type SessionGroupKind = 'today' | 'yesterday' | 'week' | 'month';

export interface SessionGroup<T> {
  kind: SessionGroupKind;
  /** Stable key: the kind, or `month-YYYY-MM`. */
  key: string;
  /** Month groups: a date inside the month, for its label. */
  month?: Date;
  items: T[];
}

const DAY = 24 * 60 * 60 * 1000;

/** Local midnight `days` days before the day of `now` (calendar days, so a DST change does not shift a boundary). */
function startOfDay(now: number, days = 0): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - days);
  return d.getTime();
}

/** Groups in the order given (callers pass newest first); empty groups are left out. */
export function groupSessions<T extends { updatedAt: number }>(sessions: readonly T[], now: number): SessionGroup<T>[] {
  const [today, yesterday, week] = [startOfDay(now), startOfDay(now, 1), startOfDay(now, 7)];
  const groups: SessionGroup<T>[] = [];
  const groupFor = (s: T): Omit<SessionGroup<T>, 'items'> => {
    if (s.updatedAt >= today) return { kind: 'today', key: 'today' };
    if (s.updatedAt >= yesterday) return { kind: 'yesterday', key: 'yesterday' };
    if (s.updatedAt >= week) return { kind: 'week', key: 'week' };
    const d = new Date(s.updatedAt);
    return {
      kind: 'month',
      key: `month-${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`,
      month: new Date(d.getFullYear(), d.getMonth(), 1),
    };
  };
  for (const s of sessions) {
    const g = groupFor(s);
    const last = groups.at(-1);
    if (last?.key === g.key) last.items.push(s);
    else groups.push({ ...g, items: [s] });
  }
  return groups;
}

/** "now", "5 min ago", "3 h ago", "yesterday", "4 days ago", then a short date ("12 Oct", "12 Oct 2025"). */
export function relativeTime(at: number, now: number, locale: string): string {
  const diff = Math.max(0, now - at);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  if (diff < 60_000) return rtf.format(0, 'second');
  if (diff < 60 * 60_000) return rtf.format(-Math.floor(diff / 60_000), 'minute');
  if (at >= startOfDay(now)) return rtf.format(-Math.floor(diff / (60 * 60_000)), 'hour');
  const days = Math.round((startOfDay(now) - startOfDay(at)) / DAY);
  if (days < 7) return rtf.format(-days, 'day');
  const sameYear = new Date(at).getFullYear() === new Date(now).getFullYear();
  return new Date(at).toLocaleDateString(locale, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  });
}

/** The searchable text of a conversation: what the person and the agent wrote (not the system prompt, not tool output). */
export function conversationText(messages: readonly Message[], limit = 200_000): string {
  const parts: string[] = [];
  let size = 0;
  for (const m of messages) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const text =
      typeof m.content === 'string'
        ? m.content
        : m.content === null
          ? ''
          : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    if (!text) continue;
    parts.push(text);
    size += text.length;
    // Bounded: a search over hundreds of sessions keeps at most this much text of each in memory.
    if (size >= limit) break;
  }
  return parts.join('\n').slice(0, limit);
}

export interface SessionMatch {
  inTitle: boolean;
  /** Some conversation text around the first word found there, when the title alone did not match. */
  snippet?: string;
}

const words = (query: string) => query.toLocaleLowerCase().split(/\s+/).filter(Boolean);

/** Every word of the query must appear, each in the title or in the conversation; case-insensitive. */
export function matchSession(query: string, title: string, content: string): SessionMatch | null {
  const want = words(query);
  if (want.length === 0) return { inTitle: true };
  const t = title.toLocaleLowerCase();
  const c = content.toLocaleLowerCase();
  if (!want.every((w) => t.includes(w) || c.includes(w))) return null;
  if (want.every((w) => t.includes(w))) return { inTitle: true };
  const word = want.find((w) => !t.includes(w))!;
  const at = c.indexOf(word);
  // A few words before the match, starting at a word, so the match itself is in the visible part of a short line.
  let start = Math.max(0, at - 24);
  const space = content.slice(start, at).search(/\s/);
  if (start > 0 && space >= 0) start += space + 1;
  const end = Math.min(content.length, at + word.length + 50);
  const snippet = `${start > 0 ? '…' : ''}${content.slice(start, end).replace(/\s+/g, ' ').trim()}${end < content.length ? '…' : ''}`;
  return { inTitle: false, snippet };
}
