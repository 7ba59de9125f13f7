import { describe, expect, it } from 'vitest';
import { codePointLabel, escapeControls, findInvisibleChar, quoteUntrusted } from './untrusted-text';

describe('findInvisibleChar', () => {
  it.each([
    ['right-to-left override', 'abc\u202Egpj.exe', 0x202e],
    ['first strong isolate', 'a\u2068b', 0x2068],
    ['zero-width space', 'ab\u200Bc', 0x200b],
    ['word joiner', '\u2060x', 0x2060],
    ['byte order mark', '\uFEFFmanifest.json', 0xfeff],
    ['C1 control (CSI)', 'x\u009B31m', 0x9b],
    ['arabic letter mark', 'a\u061Cb', 0x061c],
  ])('finds a %s', (_name, text, codePoint) => {
    expect(findInvisibleChar(text)?.codePoint).toBe(codePoint);
    expect(text.charCodeAt(findInvisibleChar(text)!.index)).toBe(codePoint);
  });

  it('accepts visible text in any script, emoji included', () => {
    for (const text of ['notes', 'Grüße', '笔记工具', 'مرحبا', 'a b-c_d.e', '👩‍💻 dev']) {
      // U+200D (ZWJ) inside an emoji sequence is still a zero-width character: names must not carry it.
      if (text.includes('\u200D')) expect(findInvisibleChar(text)?.codePoint).toBe(0x200d);
      else expect(findInvisibleChar(text)).toBeUndefined();
    }
  });
});

describe('escapeControls', () => {
  it('makes terminal control sequences and bidi controls visible, keeping newlines and tabs', () => {
    const hostile = 'ok\x1b]0;pwned\x07\x1b[2J\u009b31m\u202Edone\n\tnext\x7f';
    const shown = escapeControls(hostile);
    expect(shown).toBe('ok\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\u202edone\n\tnext\\x7f');
    const raw = [...shown].filter((ch) => {
      const c = ch.codePointAt(0)!;
      return (c < 0x20 && ch !== '\n' && ch !== '\t') || (c >= 0x7f && c <= 0x9f) || (c >= 0x202a && c <= 0x202e);
    });
    expect(raw).toEqual([]);
  });

  it('escapes newlines too when asked for one line', () => {
    expect(escapeControls('a\nb\tc', { keepLayout: false })).toBe('a\\x0ab\\x09c');
  });

  it('returns clean text unchanged', () => {
    const text = 'plain text, 中文 and emoji 🎉';
    expect(escapeControls(text)).toBe(text);
  });
});

describe('quoteUntrusted', () => {
  it('quotes short text whole, escaping quotes, backslashes and controls', () => {
    expect(quoteUntrusted('a"b\\c\x1b')).toBe('"a\\"b\\\\c\\x1b"');
  });

  it('bounds a 3 MiB string to a short prefix plus its length', () => {
    const huge = 'k'.repeat(3 * 1024 * 1024);
    const quoted = quoteUntrusted(huge);
    expect(quoted.length).toBeLessThan(260);
    expect(quoted).toContain('(3145728 characters)');
  });

  it('never splits a surrogate pair at the cut', () => {
    const text = `${'a'.repeat(199)}😀${'b'.repeat(10)}`;
    const quoted = quoteUntrusted(text);
    expect(quoted).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(quoted.startsWith(`"${'a'.repeat(199)}…"`)).toBe(true);
  });

  it('describes non-strings by their kind without serialising them', () => {
    expect(quoteUntrusted({ a: 'x'.repeat(1e6) })).toBe('an object');
    expect(quoteUntrusted(new Array(5))).toBe('an array of 5 items');
    expect(quoteUntrusted(42)).toBe('42');
    expect(quoteUntrusted(null)).toBe('null');
  });

  it('labels code points in the U+ form', () => {
    expect(codePointLabel(0x202e)).toBe('U+202E');
    expect(codePointLabel(0x9b)).toBe('U+009B');
  });
});
