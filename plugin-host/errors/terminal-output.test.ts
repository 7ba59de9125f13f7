import { describe, expect, it } from 'vitest';
import { escapeProse, stringifyForTerminal } from './terminal-output';

const HOSTILE = '\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\u2066\u200b\x7f\u2028end';
/** Code units a terminal or bidi algorithm acts on; newlines are layout of the pretty-printed form. */
const rawControls = (text: string) =>
  [...text]
    .map((ch) => ch.charCodeAt(0))
    .filter(
      (c) =>
        (c < 0x20 && c !== 0x0a) ||
        (c >= 0x7f && c <= 0x9f) ||
        (c >= 0x200b && c <= 0x200f) ||
        (c >= 0x2028 && c <= 0x202e) ||
        (c >= 0x2060 && c <= 0x206f) ||
        c === 0xfeff,
    );

describe('stringifyForTerminal', () => {
  it('writes no raw control, C1, bidi or zero-width character, yet parses back to the same value', () => {
    const value = { name: HOSTILE, list: [HOSTILE, 1, null], [HOSTILE]: true };
    for (const space of [undefined, 2]) {
      const text = stringifyForTerminal(value, space);
      expect(rawControls(text)).toEqual([]);
      expect(JSON.parse(text)).toEqual(value);
    }
    expect(stringifyForTerminal('\u009b')).toBe('"\\u009b"');
  });

  it('is JSON.stringify itself for text without such characters', () => {
    const value = { a: 'plain ünïcode 日本 🎉', b: [1, 2], c: 'tab\tline\n' };
    expect(stringifyForTerminal(value)).toBe(JSON.stringify(value));
    expect(stringifyForTerminal(value, 2)).toBe(JSON.stringify(value, null, 2));
  });
});

describe('escapeProse', () => {
  it('escapes terminal controls and bidi overrides, keeping newlines and tabs', () => {
    expect(escapeProse('a\x1b]0;pwned\x07\x1b[2J\u009b31m\x7f\r\u202e\u2066b\n\tc')).toBe(
      'a\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\x7f\\x0d\\u202e\\u2066b\n\tc',
    );
  });

  it('keeps the joiners and marks ordinary text needs', () => {
    const text = 'می\u200cخواهم · क्\u200dष · 👨\u200d👩\u200d👧 · \u200fשלום\u200e · 日本';
    expect(escapeProse(text)).toBe(text);
  });
});
