import { expect, it } from 'vitest';
import { decodeUtf8, utf8Encoder, utf8Prefix } from './utf8';
import { truncateToBytes } from '../agent/budget';

it('a prefix of text that starts with U+FEFF keeps it: a cut changes only the end, never the start', () => {
  const text = `\uFEFF${'x'.repeat(100)}`;
  expect(utf8Prefix(text, 50).text.startsWith('\uFEFF')).toBe(true);
  expect(decodeUtf8(utf8Encoder.encode(text))).toBe(text);
  expect(truncateToBytes(`\uFEFF${'y'.repeat(500)}`, 200).startsWith('\uFEFFy')).toBe(true);
});
