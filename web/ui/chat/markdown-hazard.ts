// Model text is untrusted, and `marked` is not linear on every input (measured with marked 18.2.1 in Node):
// emphasis runs are quadratic ("_a" × 8,000 = 16 KB took 0.95 s, "**a" × 8,000 0.34 s), nesting is recursive
// ("> " × 200 took 134 ms; × 2,000 throws "Maximum call stack size exceeded"), and a list indented 300 levels deep
// (90 KB) took 0.83 s. The chat renders on the main thread and re-renders an answer while it streams, so a prompt
// injection could freeze or break the conversation. This linear scan names the first shape past a bound that keeps
// marked under ~20 ms; such a message is shown as plain text instead (still complete and readable).
//
// Bounds (outside fenced code, where marked parses no inline syntax):
// - emphasis delimiters (`*`, `_`, `~`) in one block (text between blank lines): 1,000 (2,000 took 82 ms);
// - link/image brackets `[` in one block: 2,000 ("[" × 20,000 took 108 ms);
// - block nesting: 32 quote markers or 64 columns of indentation before a line's content ("> " × 60 took 11 ms);
// - the whole message: 256 KiB (marked's cost on ordinary text is ~2 ms per 1 KiB on this machine).

export const MARKDOWN_LIMITS = {
  maxChars: 256 * 1024,
  maxDelimitersPerBlock: 1000,
  maxBracketsPerBlock: 2000,
  maxQuoteDepth: 32,
  maxIndent: 64,
} as const;

export type MarkdownHazard = 'too-long' | 'emphasis' | 'brackets' | 'quote-depth' | 'indent';

/** The first shape in `text` that marked cannot render in bounded time, or undefined when it is safe to render. */
export function markdownHazard(text: string, limits = MARKDOWN_LIMITS): MarkdownHazard | undefined {
  if (text.length > limits.maxChars) return 'too-long';
  let fence: string | undefined;
  let delimiters = 0;
  let brackets = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    // Leading structure: spaces/tabs (a tab counts 4 columns) and quote markers.
    let i = lineStart;
    let indent = 0;
    let quotes = 0;
    for (; i < lineEnd; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x20) indent += 1;
      else if (c === 0x09) indent += 4;
      else if (c === 0x3e /* > */) quotes += 1;
      else break;
    }
    const fenceMark = fenceAt(text, i, lineEnd);
    if (fence !== undefined) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
    } else if (fenceMark !== undefined) {
      fence = fenceMark;
    } else {
      if (quotes > limits.maxQuoteDepth) return 'quote-depth';
      if (indent > limits.maxIndent) return 'indent';
      if (i === lineEnd) {
        // A blank line ends the block.
        delimiters = 0;
        brackets = 0;
      }
      for (let j = i; j < lineEnd; j++) {
        const c = text.charCodeAt(j);
        if (c === 0x2a /* * */ || c === 0x5f /* _ */ || c === 0x7e /* ~ */) {
          if (++delimiters > limits.maxDelimitersPerBlock) return 'emphasis';
        } else if (c === 0x5b /* [ */) {
          if (++brackets > limits.maxBracketsPerBlock) return 'brackets';
        }
      }
    }
    lineStart = lineEnd + 1;
  }
  return undefined;
}

/** "```" or "~~~" (3 or more) starting at `i`, as written, else undefined. */
function fenceAt(text: string, i: number, end: number): string | undefined {
  const c = text.charCodeAt(i);
  if (c !== 0x60 && c !== 0x7e) return undefined;
  let j = i;
  while (j < end && text.charCodeAt(j) === c) j++;
  return j - i >= 3 ? text.slice(i, j) : undefined;
}
