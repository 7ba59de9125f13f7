import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './diff';

/** Applies a unified diff produced by unifiedDiff to `old` (test oracle: the diff must reproduce the new text). */
function applyDiff(old: string, diff: string): string {
  const oldLines = old === '' ? [] : old.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let i = 0;
  let noEol = false;
  const rows = diff.split('\n').slice(2);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const hunk = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(row);
    if (hunk) {
      const start = Number(hunk[2]) === 0 ? Number(hunk[1]) : Number(hunk[1]) - 1;
      while (i < start) out.push(oldLines[i++]!);
      continue;
    }
    if (row.startsWith(' ')) {
      out.push(oldLines[i++]!);
      noEol = false;
    } else if (row.startsWith('-')) {
      i++;
    } else if (row.startsWith('+')) {
      out.push(row.slice(1));
      noEol = false;
    }
    if (rows[r + 1] === '\\ No newline at end of file' && !row.startsWith('-')) noEol = true;
  }
  while (i < oldLines.length) out.push(oldLines[i++]!);
  if (out.length === 0) return '';
  return out.join('\n') + (noEol ? '' : '\n');
}

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('unifiedDiff', () => {
  it('prints hunks with context and merges nearby changes', () => {
    const a = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const b = a.replace('l2\n', 'L2\n').replace('l5\n', 'L5\n').replace('l19\n', '');
    expect(unifiedDiff(a, b, 'f', 'f')).toBe(
      [
        '--- a/f',
        '+++ b/f',
        '@@ -1,8 +1,8 @@',
        ' l1',
        '-l2',
        '+L2',
        ' l3',
        ' l4',
        '-l5',
        '+L5',
        ' l6',
        ' l7',
        ' l8',
        '@@ -16,5 +16,4 @@',
        ' l16',
        ' l17',
        ' l18',
        '-l19',
        ' l20',
        '',
      ].join('\n'),
    );
  });

  it('marks a missing final newline and is empty for equal texts', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n', 'f', 'f')).toBe(
      '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
    expect(unifiedDiff('same\n', 'same\n', 'f', 'f')).toBe('');
    expect(unifiedDiff('gone\n', '', 'f', 'f')).toBe('--- a/f\n+++ b/f\n@@ -1,1 +0,0 @@\n-gone\n');
  });

  it('reproduces the new text for random edits, minimal or beyond the edit bound', () => {
    const next = lcg(7);
    for (let round = 0; round < 200; round++) {
      const words = ['a', 'b', 'c', 'd', 'e'];
      const a = Array.from({ length: Math.floor(next() * 30) }, () => words[Math.floor(next() * 5)]!);
      const b = a.filter(() => next() > 0.2).flatMap((w) => (next() > 0.8 ? [w, words[Math.floor(next() * 5)]!] : [w]));
      const oldText = a.length ? `${a.join('\n')}\n` : '';
      const newText = b.length ? `${b.join('\n')}\n` : '';
      for (const maxEdits of [1000, 2]) {
        const diff = unifiedDiff(oldText, newText, 'f', 'f', { maxEdits, context: round % 4 });
        expect(diff === '' ? oldText : applyDiff(oldText, diff), `round ${round}`).toBe(newText);
      }
    }
  });

  it('gives up sooner on long files: the edit bound shrinks to DIFF_MAX_WORK / lines, the same on every machine', () => {
    const edited = (lines: number, every: number) => {
      const a = Array.from({ length: lines }, (_, i) => `line ${i}`);
      const b = a.map((l, i) => (i % every === every - 1 ? `${l} changed` : l));
      return [`${a.join('\n')}\n`, `${b.join('\n')}\n`] as const;
    };
    // 40 changes (80 edits) in 10,000 lines: minimal, one hunk per change.
    const [shortOld, shortNew] = edited(10_000, 250);
    expect(unifiedDiff(shortOld, shortNew, 'f', 'f').match(/^@@ /gm)).toHaveLength(40);
    // 400 changes (800 edits, under DIFF_MAX_EDITS) in 100,000 lines: 5·10⁷ / 200,000 allows 250 edits, so one hunk.
    const [longOld, longNew] = edited(100_000, 250);
    const diff = unifiedDiff(longOld, longNew, 'f', 'f');
    expect(diff.match(/^@@ /gm)).toEqual(['@@ ']);
    expect(diff).toContain('@@ -247,99754 +247,99754 @@');
  });

  it('stays bounded: a huge rewrite falls back to one replace hunk and the text is cut with a marker', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `old ${i}`).join('\n');
    const b = Array.from({ length: 20_000 }, (_, i) => `new ${i}`).join('\n');
    const diff = unifiedDiff(a, b, 'f', 'f', { maxChars: 5000 });
    expect(diff.length).toBeLessThan(5100);
    expect(diff).toContain('@@ -1,20000 +1,20000 @@');
    expect(diff.trimEnd().endsWith('[diff truncated at 5000 characters]')).toBe(true);
  });
});
