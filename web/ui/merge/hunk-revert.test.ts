// Reverting one hunk puts exactly that hunk back and keeps the rest, byte for byte, with the hunks CodeMirror's merge
// package finds (the ones the view shows): LF, CRLF, a file without a final newline, created and emptied files.
import { describe, expect, it } from 'vitest';
import { Chunk } from '@codemirror/merge';
import { Text } from '@codemirror/state';
import { hunkKey, lineRange, revertHunk, splitLines, type LineHunk } from './hunks';

const doc = (s: string) => Text.of(s.split(/\r\n|\r|\n/));
function hunks(a: string, b: string): LineHunk[] {
  const da = doc(a);
  const db = doc(b);
  return Chunk.build(da, db).map((c) => ({ a: lineRange(da, c.fromA, c.toA), b: lineRange(db, c.fromB, c.toB) }));
}

describe('revertHunk', () => {
  const before = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
  const after = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nNINE\nten\n';

  it('puts back only the chosen hunk of a two-hunk edit', () => {
    const found = hunks(before, after);
    expect(found).toHaveLength(2);
    expect(revertHunk(before, after, found[0]!)).toBe('one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nNINE\nten\n');
    expect(revertHunk(before, after, found[1]!)).toBe('one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\n');
  });

  it('keeps CRLF line endings in the lines it does not touch and in the ones it puts back', () => {
    const a = before.replace(/\n/g, '\r\n');
    const b = after.replace(/\n/g, '\r\n');
    const [first, second] = hunks(a, b);
    expect(revertHunk(a, b, first!)).toBe(
      'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix\r\nseven\r\neight\r\nNINE\r\nten\r\n',
    );
    expect(revertHunk(a, b, second!)).toBe(a.replace('two', 'TWO'));
  });

  it('keeps a missing final newline where the file had none', () => {
    const a = 'alpha\nbeta\ngamma';
    const b = 'ALPHA\nbeta\ngamma\ndelta';
    const [first, second] = hunks(a, b);
    expect(revertHunk(a, b, first!)).toBe('alpha\nbeta\ngamma\ndelta');
    // Putting back the end: gamma was the last line, without a newline, and is again.
    expect(revertHunk(a, b, second!)).toBe('ALPHA\nbeta\ngamma');
  });

  it('adds a line break when a line that was last is followed by kept lines again', () => {
    const a = 'x\ny';
    const b = 'x\nY\nz\n';
    const h: LineHunk = { a: [1, 2], b: [1, 2] };
    expect(revertHunk(a, b, h)).toBe('x\ny\nz\n');
  });

  it('reverts a created file to empty and an emptied file to its lines', () => {
    const [created] = hunks('', 'new\nfile\n');
    expect(revertHunk('', 'new\nfile\n', created!)).toBe('');
    const [emptied] = hunks('old\n', '');
    expect(revertHunk('old\n', '', emptied!)).toBe('old\n');
  });
});

describe('splitLines and hunkKey', () => {
  it('splits like CodeMirror on \\r\\n, \\r and \\n, each line keeping its terminator', () => {
    expect(splitLines('a\r\nb\rc\nd')).toEqual(['a\r\n', 'b\r', 'c\n', 'd']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\n')).toEqual(['a\n']);
  });

  it('names a hunk by its texts, so its key survives another hunk being reverted above it', () => {
    const a = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\n';
    const b = 'ONE\nextra\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nNINE\n';
    const [first, second] = hunks(a, b);
    const partly = revertHunk(a, b, first!);
    const [again] = hunks(a, partly);
    expect(hunkKey(a, partly, again!)).toBe(hunkKey(a, b, second!));
    expect(hunkKey(a, b, first!)).not.toBe(hunkKey(a, b, second!));
  });
});
