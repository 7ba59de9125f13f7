import { describe, expect, it } from 'vitest';
import { boundedText, escapeControls, quoteUntrusted } from './untrusted-text';

describe("escapeControls (net/'s copy of plugin-host/errors, for net/ and the bridge)", () => {
  it('shows ESC, BEL, C1, DEL, bidi and zero-width characters as escapes, and newlines too unless keepLayout', () => {
    expect(escapeControls('\x1b]0;pwned\x07\x1b[2J\u009b31m\x7f\u202e\u2066\u200b\ufeff')).toBe(
      '\\x1b]0;pwned\\x07\\x1b[2J\\x9b31m\\x7f\\u202e\\u2066\\u200b\\ufeff',
    );
    expect(escapeControls('a\nb\tc\rd')).toBe('a\\x0ab\\x09c\\x0dd');
    expect(escapeControls('a\nb\tc\rd', { keepLayout: true })).toBe('a\nb\tc\\x0dd');
  });

  it('leaves ordinary text, accents, CJK and emoji as they are', () => {
    const text = 'i-bridge: mcp "démo" 日本 🎉 (/home/user/proj)';
    expect(escapeControls(text)).toBe(text);
  });
});

describe('quoteUntrusted and boundedText (errors that name what a worker or server sent)', () => {
  it('keep a short prefix and the full length, with controls escaped and no half surrogate pair', () => {
    const huge = `\u001b[2J${'x'.repeat(5 * 1024 * 1024)}`;
    expect(boundedText(huge, 10)).toBe(`\\x1b[2J${'x'.repeat(6)}… (${huge.length} characters)`);
    expect(quoteUntrusted('say "hi" \\ bye')).toBe('"say \\"hi\\" \\\\ bye"');
    expect(boundedText(`${'a'.repeat(9)}😀b`, 10)).toBe(`${'a'.repeat(9)}… (12 characters)`);
  });
});
