// Streaming Markdown as a list of top-level blocks (marked's lexer: paragraph, list, fenced code, table…), so a view
// keeps the DOM of finished blocks and re-renders only the last, growing one: no flicker and no re-parse of the
// whole answer per delta. Every block but the last is finished: once a later block has started, text appended to
// the answer can no longer change it (the lexer cut it at a blank line or a fence). Their objects stay identical
// from one update to the next, which is what lets a keyed-by-position view skip them.
//
// Limits: a reference link (`[x][ref]`) resolves only against a definition lexed in the same pass (all of a saved
// answer; while streaming, a block finished before its definition arrived keeps the link as text); text that
// markdownHazard refuses is never lexed (the lexer recurses per nesting level), it stays one plain block.
import { marked, type Token, type Tokens } from 'marked';
import { markdownHazard } from './markdown-hazard';

export type MdBlock =
  /**
   * Markdown source of one block (its trailing blank lines included) and, when it was lexed, its tokens: rendering
   * them (renderMarkdownTokens) skips lexing the text again. Without tokens, renderMarkdown(raw).
   */
  | { kind: 'md'; raw: string; tokens?: readonly Token[] }
  /** A fenced code block: its label as written (` ```ts ` → "ts"), the code, and whether the fence was closed. */
  | { kind: 'code'; raw: string; label: string; code: string; closed: boolean };

/** All blocks of a finished text. */
export function splitMarkdownBlocks(text: string): MdBlock[] {
  return createBlockSplitter().update(text);
}

export interface BlockSplitter {
  /**
   * The blocks of `text`. When `text` extends the previous text, the finished blocks are the same objects as
   * before (and only the tail is lexed again); any other text starts over.
   */
  update(text: string): MdBlock[];
}

/**
 * `seed`: a text and the blocks another splitter gave for it (the streamed answer becoming the saved one): the new
 * splitter starts from them, so that text is not lexed again (only its last block is).
 */
export function createBlockSplitter(seed?: { text: string; blocks: readonly MdBlock[] }): BlockSplitter {
  let source = '';
  /** Finished blocks and the length of source they cover. */
  let finished: MdBlock[] = [];
  let covered = 0;
  if (seed && seed.blocks.length > 0) {
    const done = seed.blocks.slice(0, -1);
    const length = done.reduce((n, b) => n + b.raw.length, 0);
    // Only when the blocks really are the start of the text (CRLF normalised, nothing missing).
    if (seed.text.startsWith(done.map((b) => b.raw).join(''))) {
      source = seed.text;
      finished = done;
      covered = length;
    }
  }
  return {
    update(input) {
      const text = input.includes('\r') ? input.replace(/\r\n?/g, '\n') : input;
      if (!text.startsWith(source) || text.length < covered) {
        finished = [];
        covered = 0;
      }
      source = text;
      const tail = text.slice(covered);
      if (tail === '') return finished.slice();
      const blocks = lexBlocks(tail);
      // All but the last block are finished; keep them (new objects are made only for newly finished ones).
      if (blocks.length > 1) {
        const done = blocks.slice(0, -1);
        finished = [...finished, ...done];
        covered += done.reduce((n, b) => n + b.raw.length, 0);
      }
      return [...finished, blocks.at(-1)!];
    },
  };
}

function lexBlocks(text: string): MdBlock[] {
  if (markdownHazard(text) !== undefined) return [{ kind: 'md', raw: text }];
  let tokens: Token[];
  try {
    tokens = marked.lexer(text, { gfm: true });
  } catch {
    return [{ kind: 'md', raw: text }];
  }
  // The lexer's raw texts add up to its input (CRLF was normalised above); if a version ever differs, one block.
  if (tokens.reduce((n, t) => n + t.raw.length, 0) !== text.length) return [{ kind: 'md', raw: text }];
  const blocks: MdBlock[] = [];
  let pending = '';
  for (const token of tokens) {
    if (token.type === 'space' && blocks.length > 0) {
      // Blank lines belong to the block before them, so a block's raw ends where the next one starts.
      const last = blocks.pop()!;
      blocks.push(
        last.kind === 'code'
          ? { ...last, raw: last.raw + token.raw }
          : { kind: 'md', raw: last.raw + token.raw, tokens: [...(last.tokens ?? []), token] },
      );
      continue;
    }
    const raw = pending + token.raw;
    pending = '';
    if (token.type === 'space') {
      // Only a leading blank line (no block before it to hold it): it joins the next block's source.
      pending = raw;
      continue;
    }
    blocks.push(
      token.type === 'code' && token.codeBlockStyle !== 'indented'
        ? codeBlock(raw, token as Tokens.Code)
        : { kind: 'md', raw, tokens: [token] },
    );
  }
  if (pending) blocks.push({ kind: 'md', raw: pending, tokens: [] });
  return blocks;
}

function codeBlock(raw: string, token: Tokens.Code): MdBlock {
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1] ?? '```';
  const body = raw.trimEnd();
  const lastLine = body.slice(body.lastIndexOf('\n') + 1).trim();
  // Closed when a line after the opening one is a fence of the same character at least as long.
  const closed = body.includes('\n') && lastLine.length >= fence.length && [...lastLine].every((c) => c === fence[0]);
  return { kind: 'code', raw, label: (token.lang ?? '').trim(), code: token.text, closed };
}

/**
 * Blocks in groups of GROUP_SIZE, each group one element of the view (message-parts.tsx) that skips layout and paint
 * while off screen (`content-visibility: auto`, messages.css). Per block that cost more than it saved: the browser
 * checks every such element against the viewport each frame, and a 200 KB answer has ~700 blocks (traced: up to
 * 290 ms of one frame in intersection checks with two such answers on screen). A group whose blocks did not change
 * keeps its array, so `Index` leaves its DOM alone.
 */
export function groupBlocks(blocks: readonly MdBlock[], previous: readonly MdBlock[][]): MdBlock[][] {
  const groups: MdBlock[][] = [];
  for (let start = 0; start < blocks.length; start += GROUP_SIZE) {
    const before = previous[groups.length];
    const end = Math.min(blocks.length, start + GROUP_SIZE);
    const same =
      before !== undefined && before.length === end - start && before.every((b, i) => b === blocks[start + i]);
    groups.push(same ? before : blocks.slice(start, end));
  }
  return groups;
}

export const GROUP_SIZE = 16;
