// npm run bench: the Markdown work of the chat, block by block (markdown-blocks.ts) against one parse.
// 1. Streaming: lex the tail, render only the growing block, each finished block once more as it finishes, vs the
//    old way (parse the whole answer on every delta). Target ≤ 0.2 on a 13 KB answer streamed 48 characters at a
//    time (measured 0.02–0.04).
// 2. A saved answer: split, then render each block from its tokens, vs one parse of the whole text (target ≤ 1.5;
//    measured 1.1 — rendering from the splitter's tokens, not re-lexing each block's text, which measured 2.7).
// DOMPurify needs a DOM, so both sides stop at marked's HTML; the sanitiser's cost follows the same lengths.
import { marked } from 'marked';
import { it } from 'vitest';
import { compare } from '../../../scripts/bench-kit';
import { createBlockSplitter, splitMarkdownBlocks, type MdBlock } from './markdown-blocks';

const SECTION = [
  '## Step {n}',
  '',
  'We read **the file** and change one line; the rest stays as it is, including `config.json` and the [docs](https://example.com).',
  '',
  '- first point with *emphasis*',
  '- second point',
  '  - nested point',
  '',
  '```ts',
  'export function step{n}(input: string): string {',
  '  return input.trim().toUpperCase();',
  '}',
  '```',
  '',
  '| name | value |',
  '|---|---|',
  '| a | {n} |',
  '',
].join('\n');
const ANSWER = Array.from({ length: 40 }, (_, n) => SECTION.replaceAll('{n}', String(n))).join('\n');
const DELTA = 48;
const prefixes = Array.from({ length: Math.ceil(ANSWER.length / DELTA) }, (_, i) => ANSWER.slice(0, (i + 1) * DELTA));
const parse = (text: string) => marked.parse(text, { async: false, gfm: true });
// What the view does with a block: its tokens when the splitter lexed it, else its text.
const render = (block: MdBlock) =>
  block.kind === 'md' && block.tokens ? marked.parser([...block.tokens]) : parse(block.raw);

function wholeEachDelta() {
  let size = 0;
  for (const text of prefixes) size += parse(text).length;
  return size;
}

function blockByBlock() {
  const splitter = createBlockSplitter();
  let size = 0;
  let finished = 0;
  for (const text of prefixes) {
    const blocks = splitter.update(text);
    // Blocks that finished since the last delta are rendered once more with their final text.
    for (; finished < blocks.length - 1; finished++) size += render(blocks[finished]!).length;
    size += render(blocks.at(-1)!).length;
  }
  return size;
}

it('renders a streamed answer block by block in a fraction of re-parsing it per delta', async () => {
  await compare(
    `streamed Markdown (${(ANSWER.length / 1024).toFixed(0)} KB in ${prefixes.length} deltas)`,
    { label: 'whole answer per delta', run: wholeEachDelta },
    { label: 'last block per delta', run: blockByBlock },
    { runs: 5, warmup: 1, target: 0.2 },
  );
});

it('renders a saved answer block by block at about the cost of one parse', async () => {
  await compare(
    `saved Markdown (${(ANSWER.length / 1024).toFixed(0)} KB)`,
    { label: 'one parse of the answer', run: () => parse(ANSWER).length },
    {
      label: 'split + render each block',
      run: () => splitMarkdownBlocks(ANSWER).reduce((n, b) => n + render(b).length, 0),
    },
    { runs: 15, warmup: 3, target: 1.5 },
  );
});
