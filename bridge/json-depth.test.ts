import { describe, expect, it } from 'vitest';
import { nestsDeeperThan } from './json-depth';

const nested = (depth: number, inner = '0') => '['.repeat(depth) + inner + ']'.repeat(depth);
const deeper = (text: string, max: number) => nestsDeeperThan(Buffer.from(text, 'utf8'), max);

describe('JSON nesting depth from raw bytes', () => {
  it('accepts nesting up to the limit and refuses one level more, for arrays and objects alike', () => {
    expect(deeper(nested(10), 10)).toBe(false);
    expect(deeper(nested(11), 10)).toBe(true);
    expect(deeper(`{"a":${nested(9)}}`, 10)).toBe(false);
    expect(deeper(`{"a":{"b":${nested(9)}}}`, 10)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes and escaped backslashes included', () => {
    expect(deeper(JSON.stringify({ s: '['.repeat(1000) }), 2)).toBe(false);
    expect(deeper(JSON.stringify({ s: `\\"${'{'.repeat(50)}"\\` }), 2)).toBe(false);
    expect(deeper(JSON.stringify([{ s: '\\' }, [[['x']]]]), 3)).toBe(true);
    expect(deeper(JSON.stringify({ s: '\u00e9[[[[\u4e2d' }), 1)).toBe(false);
  });

  it('measures siblings, not the running count of brackets', () => {
    expect(deeper(JSON.stringify(Array.from({ length: 1000 }, () => [[1]])), 3)).toBe(false);
  });

  it('leaves malformed input to the parser (an unterminated string is not deep)', () => {
    expect(deeper('["abc', 1)).toBe(false);
  });
});
