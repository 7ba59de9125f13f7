import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/contracts';
import { conversationText, groupSessions, matchSession, relativeTime } from './session-groups';

// A fixed local time: Wednesday 2 December 2026, 15:30.
const NOW = new Date(2026, 11, 2, 15, 30).getTime();
const at = (y: number, m: number, d: number, h = 12) => new Date(y, m, d, h).getTime();

describe('groupSessions', () => {
  it('groups newest-first sessions into today, yesterday, the previous 7 days and then months', () => {
    const sessions = [
      { id: 'a', updatedAt: at(2026, 11, 2, 0) + 1 }, // just after midnight today
      { id: 'b', updatedAt: at(2026, 11, 1, 23) }, // yesterday late
      { id: 'c', updatedAt: at(2026, 10, 26) }, // 6 days ago
      { id: 'd', updatedAt: at(2026, 10, 3) }, // November, older than a week
      { id: 'e', updatedAt: at(2026, 10, 1) },
      { id: 'f', updatedAt: at(2025, 11, 31) },
    ];
    const groups = groupSessions(sessions, NOW);
    expect(groups.map((g) => [g.key, g.items.map((s) => s.id).join('')])).toEqual([
      ['today', 'a'],
      ['yesterday', 'b'],
      ['week', 'c'],
      ['month-2026-11', 'de'],
      ['month-2025-12', 'f'],
    ]);
    expect(groups[3]!.month!.getMonth()).toBe(10);
  });

  it('puts a session of exactly 7 calendar days ago into the previous 7 days and 8 days ago into its month', () => {
    const groups = groupSessions([{ updatedAt: at(2026, 10, 25, 0) }, { updatedAt: at(2026, 10, 24, 23) }], NOW);
    expect(groups.map((g) => g.kind)).toEqual(['week', 'month']);
  });
});

describe('relativeTime', () => {
  it('says minutes and hours today, days this week, then a date with the year only when it differs', () => {
    // The wording of short units changes between ICU versions; the unit chosen is what is tested here.
    const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
    expect(relativeTime(NOW - 10_000, NOW, 'en')).toBe('now');
    expect(relativeTime(NOW - 5 * 60_000, NOW, 'en')).toBe(rtf.format(-5, 'minute'));
    expect(relativeTime(NOW - 3 * 3600_000, NOW, 'en')).toBe(rtf.format(-3, 'hour'));
    expect(relativeTime(at(2026, 11, 1, 23), NOW, 'en')).toBe('yesterday');
    expect(relativeTime(at(2026, 10, 28), NOW, 'en')).toBe('4 days ago');
    expect(relativeTime(at(2026, 9, 12), NOW, 'en')).toBe('Oct 12');
    expect(relativeTime(at(2025, 9, 12), NOW, 'en')).toBe('Oct 12, 2025');
    expect(relativeTime(at(2026, 11, 1, 23), NOW, 'zh-CN')).toBe('昨天');
  });
});

describe('matchSession', () => {
  it('finds a session by a word of its conversation and shows the words around it', () => {
    const content = 'Please look at the parser.\nThe tokenizer drops the trailing semicolon in every statement.';
    const m = matchSession('semicolon', 'Parser bug', content);
    expect(m).toEqual({ inTitle: false, snippet: expect.stringContaining('trailing semicolon in every') });
    expect(m!.snippet!.startsWith('…')).toBe(true);
  });

  it('needs every word, in the title or the conversation, ignoring case', () => {
    expect(matchSession('PARSER semicolon', 'Parser bug', 'a semicolon')).toEqual({
      inTitle: false,
      snippet: 'a semicolon',
    });
    expect(matchSession('parser', 'Parser bug', '')).toEqual({ inTitle: true });
    expect(matchSession('parser lexer', 'Parser bug', 'a semicolon')).toBeNull();
  });
});

describe('conversationText', () => {
  it('keeps what the person and the agent wrote, not the system prompt or tool output, bounded', () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: [{ type: 'text', text: 'fix the build' }] },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'SECRET FILE CONTENT' },
      { role: 'assistant', content: 'Done.' },
    ];
    expect(conversationText(messages)).toBe('fix the build\nLooking.\nDone.');
    expect(conversationText(messages, 10)).toBe('fix the bu');
  });
});
