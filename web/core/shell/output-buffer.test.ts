// Bounded command output: the held head and tail, unread output of a background process, live events — each cut on
// a UTF-8 character boundary and within its byte limit, whatever arrives.
import { describe, expect, it, vi } from 'vitest';
import { HeldOutput, LiveOutput, UnreadOutput, utf8Suffix } from './output-buffer';
import { composeOutput } from './shell-result';

const bytes = (text: string) => Buffer.byteLength(text);

describe('bounded command output', () => {
  it('holds the first and last bytes of a long output, counts the middle and never splits a character', () => {
    const held = new HeldOutput(10, 8);
    for (const piece of ['ab', '€€€€', 'cd', '漢字漢字', 'end!']) held.push(piece);
    expect(held.total).toBe(2 + 12 + 2 + 12 + 4);
    const text = held.text();
    expect(text.startsWith('ab€€')).toBe(true); // 8 bytes: the third € would pass the 10-byte head
    expect(text.endsWith('字end!')).toBe(true); // 7 bytes of the 8-byte tail: half a 字 is dropped whole
    expect(held.dropped).toBe(held.total - 8 - 7);
    expect(text).toContain(`${held.dropped} bytes of output not kept`);
    expect(text).not.toContain('\ufffd');
  });

  it('keeps a background process’s newest unread output and says how much was dropped, once', () => {
    const unread = new UnreadOutput(5);
    unread.push('12345');
    unread.push('6789');
    expect(unread.take()).toEqual({ text: '56789', dropped: 4 });
    expect(unread.pending).toBe(false);
    expect(unread.take()).toEqual({ text: '', dropped: 0 });
    expect(utf8Suffix('aé', 1)).toEqual({ text: '', bytes: 0 });
  });

  it('sends live output in events of at most eventBytes, and stops with one note past maxBytes', () => {
    vi.useFakeTimers();
    try {
      const events: Array<{ text: string; cut?: true }> = [];
      const live = new LiveOutput((text, cut) => events.push({ text, ...(cut ? { cut } : {}) }), {
        eventBytes: 8,
        intervalMs: 100,
        maxBytes: 30,
      });
      live.push('abc');
      expect(events).toEqual([]); // gathered until the interval …
      vi.advanceTimersByTime(100);
      expect(events).toEqual([{ text: 'abc' }]);
      live.push('€€€€€€'); // … or until eventBytes
      expect(events.slice(1).map((e) => e.text)).toEqual(['€€', '€€', '€€']);
      live.push('0123456789');
      live.end();
      expect(events.at(-1)!.cut).toBe(true);
      expect(events.filter((e) => !e.cut).every((e) => bytes(e.text) <= 8)).toBe(true);
      expect(events.filter((e) => !e.cut).reduce((n, e) => n + bytes(e.text), 0)).toBeLessThanOrEqual(30);
      live.push('more');
      live.end();
      expect(events.filter((e) => e.cut)).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the byte offset where a long output’s last 2048 bytes start in the whole result', () => {
    const output = `${'x'.repeat(9000)}é${'y'.repeat(3000)}`;
    const text = composeOutput(['exit 1 after 0.10 s'], output, bytes(output), 0);
    const offset = Number(/start at offset (\d+)/.exec(text)![1]);
    const tail = Buffer.from(text).subarray(offset).toString();
    expect(tail).toBe('y'.repeat(2048));
    expect(composeOutput(['exit 0 after 0.10 s'], 'short\n', 6, 0)).toBe(
      'exit 0 after 0.10 s\noutput (stdout and stderr merged, 6 bytes):\nshort\n',
    );
  });
});
