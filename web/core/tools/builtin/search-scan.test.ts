// The whole-text scan of `search` must find exactly the lines the line-by-line reference finds, with the same line
// numbers and snippets, on text that trips offset arithmetic: multi-byte and astral characters, characters whose
// lower case changes length, CRLF, lines past the 4000-character cut, empty lines, no final newline.
import { describe, expect, it } from 'vitest';
import { BINARY_SNIFF_BYTES, SEARCH_MAX_LINE_CHARS } from '../../contracts/tool-limits';
import { lineTest, scanLines, scanText, type ScanBudget } from './search-scan';
import { decodeText, hasNul, textUnlessBinary } from './tool-kit';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const budget = (left = 1000): ScanBudget => ({ left, deadline: Infinity, now: () => 0, timedOut: false });

const PIECES = [
  'foo',
  'Foo',
  'FOO',
  'bar',
  'x1',
  'x22',
  ' ',
  '\t',
  '\r\n',
  '\n',
  '\n',
  '中文',
  '😀',
  'İ',
  'Σ',
  'ſ',
  'é',
  'fooé',
  'a\r',
  '_99',
  'handler7_99',
];

function corpus(next: () => number): string {
  const parts: string[] = [];
  const n = Math.floor(next() * 60);
  for (let i = 0; i < n; i++) parts.push(PIECES[Math.floor(next() * PIECES.length)]!);
  if (next() < 0.2)
    parts.splice(
      Math.floor(next() * parts.length),
      0,
      'y'.repeat(SEARCH_MAX_LINE_CHARS - 3 + Math.floor(next() * 8)),
      'foo',
    );
  return parts.join('');
}

const PATTERNS: Array<{ pattern: string; regex: boolean }> = [
  { pattern: 'foo', regex: false },
  { pattern: 'Foo', regex: false },
  { pattern: 'fooé', regex: false },
  { pattern: '中文', regex: false },
  { pattern: 'a\r', regex: false },
  { pattern: 'o\nb', regex: false },
  { pattern: 'x\\d+', regex: true },
  { pattern: 'foo\\s*bar', regex: true },
  { pattern: 'handler\\d+_99\\b', regex: true },
  { pattern: '^foo', regex: true },
  { pattern: 'bar$', regex: true },
  { pattern: 'Σ|foo', regex: true },
  { pattern: '\\d{2}', regex: true },
];

describe('search scan', () => {
  it('finds the same lines, numbers and snippets as testing every line, on thousands of random texts', () => {
    const next = lcg(7);
    let withHits = 0;
    for (let round = 0; round < 3000; round++) {
      const text = corpus(next);
      const { pattern, regex } = PATTERNS[round % PATTERNS.length]!;
      for (const caseSensitive of [true, false]) {
        const test = lineTest('search', pattern, regex, caseSensitive);
        const cap = next() < 0.3 ? 1 + Math.floor(next() * 3) : 1000;
        const fast = budget(cap);
        const slow = budget(cap);
        const got = scanText('f.txt', text, test, fast);
        expect(got, JSON.stringify({ pattern, caseSensitive, text })).toEqual(scanLines('f.txt', text, test, slow));
        expect(fast.left).toBe(slow.left);
        if (got.length > 0) withHits++;
      }
    }
    expect(withHits).toBeGreaterThan(1000);
  });

  it('tests only the lines that hold every required literal', () => {
    let tested = 0;
    const inner = lineTest('search', 'handler\\d+_99\\b', true, true);
    const counting = { ...inner, line: (line: string) => (tested++, inner.line(line)) };
    const lines = Array.from({ length: 500 }, (_, i) => `export function handler${i}_${i % 40}(value: number) {}`);
    lines[321] = 'const handler3_99 = 1;';
    expect(scanText('a.ts', lines.join('\n'), counting, budget())).toEqual(['a.ts:322: const handler3_99 = 1;']);
    expect(tested).toBe(1);
    tested = 0;
    expect(scanText('a.ts', lines.filter((_, i) => i !== 321).join('\n'), counting, budget())).toEqual([]);
    expect(tested).toBe(0);
  });

  it('stops at the deadline while scanning hits', () => {
    const test = lineTest('search', 'x', false, true);
    let t = 0;
    const b: ScanBudget = { left: 1_000_000, deadline: 5, now: () => (t += 10), timedOut: false };
    const hits = scanText('f', 'x\n'.repeat(5000), test, b);
    expect(b.timedOut).toBe(true);
    expect(hits.length).toBeLessThan(5000);
  });

  it('skips the same files as binary as a NUL check on the bytes followed by a strict decode', () => {
    const enc = new TextEncoder();
    const at = (prefix: string, rest: number[] = []) => new Uint8Array([...enc.encode(prefix), ...rest]);
    const cases = [
      at('plain text\n'),
      at('', [0, 65]),
      at('a'.repeat(BINARY_SNIFF_BYTES - 1), [0]), // NUL at the last sniffed byte
      at('a'.repeat(BINARY_SNIFF_BYTES), [0]), // just past it: text
      at('é'.repeat(BINARY_SNIFF_BYTES / 2 - 1), [0x61, 0]), // character index < 8192, byte offset 8191: binary
      at('é'.repeat(BINARY_SNIFF_BYTES / 2), [0]), // character index 4096, byte offset 8192: text
      at('中'.repeat(3000), [0]), // byte offset 9000: text
      at('ok', [0xc3, 0x28]), // invalid UTF-8
      at('\ufeffwith a BOM'),
    ];
    for (const bytes of cases) {
      const reference = hasNul(bytes, BINARY_SNIFF_BYTES) ? null : decodeText(bytes);
      expect(textUnlessBinary(bytes, BINARY_SNIFF_BYTES), `${bytes.length} bytes`).toBe(reference);
    }
    expect(cases.map((b) => textUnlessBinary(b, BINARY_SNIFF_BYTES) === null)).toEqual([
      false,
      true,
      true,
      false,
      true,
      false,
      false,
      true,
      false,
    ]);
  });
});
