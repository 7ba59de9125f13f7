import { describe, expect, it } from 'vitest';
import { createBlockSplitter, groupBlocks, GROUP_SIZE, splitMarkdownBlocks, type MdBlock } from './markdown-blocks';

const ANSWER = [
  '# Plan',
  '',
  'First read the file,',
  'then change it.',
  '',
  '- one',
  '- two',
  '',
  '  still two',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  'Done.',
].join('\n');

/** Feeds `text` in chunks of `size` characters and returns every update's blocks. */
function stream(text: string, size: number): MdBlock[][] {
  const splitter = createBlockSplitter();
  const updates: MdBlock[][] = [];
  for (let end = size; end < text.length + size; end += size)
    updates.push(splitter.update(text.slice(0, Math.min(end, text.length))));
  return updates;
}

describe('markdown block splitter', () => {
  it('splits an answer into top-level blocks whose sources add up to the text', () => {
    const blocks = splitMarkdownBlocks(ANSWER);
    expect(blocks.map((b) => b.kind)).toEqual(['md', 'md', 'md', 'code', 'md', 'md']);
    expect(blocks.map((b) => b.raw).join('')).toBe(ANSWER);
    expect(blocks[2]!.raw).toContain('still two');
    expect(blocks[3]).toMatchObject({ kind: 'code', label: 'ts', code: 'const a = 1;\n\nconst b = 2;', closed: true });
  });

  it('keeps finished blocks as the same objects while the answer streams, whatever the chunk size', () => {
    for (const size of [1, 3, 17, 64]) {
      const updates = stream(ANSWER, size);
      for (let i = 1; i < updates.length; i++) {
        const before = updates[i - 1]!;
        const now = updates[i]!;
        // Every block that was finished (all but the last) is still there, identical, at the same position.
        for (let j = 0; j < before.length - 1; j++)
          expect(now[j], `chunk ${size}, update ${i}, block ${j}`).toBe(before[j]);
      }
      // Streaming ends with the same six blocks as splitting the whole text.
      expect(updates.at(-1)!.map((b) => b.raw)).toEqual(splitMarkdownBlocks(ANSWER).map((b) => b.raw));
      expect(updates.at(-1)).toHaveLength(6);
    }
  });

  it('shows an unclosed fence as an open code block that grows, then closes', () => {
    const splitter = createBlockSplitter();
    expect(splitter.update('Look:\n\n```py\nprint(1)').at(-1)).toMatchObject({
      kind: 'code',
      label: 'py',
      code: 'print(1)',
      closed: false,
    });
    expect(splitter.update('Look:\n\n```py\nprint(1)\nprint(2)\n```').at(-1)).toMatchObject({
      kind: 'code',
      code: 'print(1)\nprint(2)',
      closed: true,
    });
  });

  it('starts over when the text is replaced instead of extended (a new step of the turn)', () => {
    const splitter = createBlockSplitter();
    const first = splitter.update('para one\n\npara two');
    const next = splitter.update('other\n\ntext');
    expect(next.map((b) => b.raw)).toEqual(['other\n\n', 'text']);
    expect(next[0]).not.toBe(first[0]);
  });

  it('keeps text the renderer must not parse (too deeply nested) as one block without lexing it', () => {
    const hostile = `${'> '.repeat(2000)}x`;
    expect(splitMarkdownBlocks(`ok\n\n${hostile}`)).toEqual([{ kind: 'md', raw: `ok\n\n${hostile}` }]);
  });

  it('treats CRLF like LF', () => {
    expect(splitMarkdownBlocks('a\r\n\r\nb').map((b) => b.raw)).toEqual(['a\n\n', 'b']);
  });
});

describe('a splitter seeded with the blocks a text was shown with', () => {
  const text = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} with **bold** text.`).join('\n\n');

  it('returns those very blocks for that text instead of lexing it again', () => {
    const shown = splitMarkdownBlocks(text);
    const seeded = createBlockSplitter({ text, blocks: shown }).update(text);
    expect(seeded.length).toBe(shown.length);
    // Identity: the finished blocks were taken over, not lexed again (only the last one is).
    expect(seeded.slice(0, -1).every((b, i) => b === shown[i])).toBe(true);
    expect(seeded.at(-1)!.raw).toBe(shown.at(-1)!.raw);
  });

  it('ignores blocks that are not the start of the text, and splits it as if unseeded', () => {
    const other = splitMarkdownBlocks('Something else entirely.\n\nAnd more.\n\nEnd.');
    const seeded = createBlockSplitter({ text, blocks: other }).update(text);
    expect(seeded.map((b) => b.raw)).toEqual(splitMarkdownBlocks(text).map((b) => b.raw));
  });
});

describe('groupBlocks', () => {
  const blocks = splitMarkdownBlocks(Array.from({ length: 40 }, (_, i) => `Block ${i}.`).join('\n\n'));

  it('puts blocks in groups of GROUP_SIZE, in order, the last group holding the rest', () => {
    const groups = groupBlocks(blocks, []);
    expect(groups.map((g) => g.length)).toEqual([GROUP_SIZE, GROUP_SIZE, 40 - 2 * GROUP_SIZE]);
    expect(groups.flat()).toEqual(blocks);
  });

  it('keeps the array of every group whose blocks did not change, so the view keeps its DOM', () => {
    const before = groupBlocks(blocks.slice(0, 20), []);
    const after = groupBlocks(blocks, before);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after[1]).toEqual(blocks.slice(GROUP_SIZE, 2 * GROUP_SIZE));
  });
});
