// Hunks as line ranges of the raw texts, and the content of a file with one hunk put back. Pure (no CodeMirror), so
// the Changes panel and the approval card compute the same bytes, and tests run in Node.
//
// Lines are split the way CodeMirror splits a document (\r\n, \r or \n each end a line), so a chunk's line numbers
// in the editor are line indices here; unlike the editor's document, each line keeps its own terminator, so a
// CRLF file stays CRLF and a file without a final newline keeps that.

/** A hunk: lines [from, to) of A (the version before) stand where lines [from, to) of B (the version now) are. */
export interface LineHunk {
  a: readonly [number, number];
  b: readonly [number, number];
}

/** `text` as lines, each with its own terminator (the last one may have none). "" is no lines. */
export function splitLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

function terminatorOf(lines: readonly string[]): string {
  for (const line of lines) {
    const m = /(\r\n|\r|\n)$/.exec(line);
    if (m) return m[1]!;
  }
  return '\n';
}

const endsLine = (line: string) => /[\r\n]$/.test(line);

/**
 * B with the hunk's lines replaced by A's: the file as it is now, with that one change undone and every other
 * change kept. A line of A that had no terminator (A's last) gets B's terminator when B's lines continue after it.
 */
export function revertHunk(a: string, b: string, hunk: LineHunk): string {
  const la = splitLines(a);
  const lb = splitLines(b);
  const head = lb.slice(0, hunk.b[0]);
  const middle = la.slice(hunk.a[0], hunk.a[1]);
  const tail = lb.slice(hunk.b[1]);
  const last = middle.length - 1;
  if (last >= 0 && tail.length > 0 && !endsLine(middle[last]!)) middle[last] += terminatorOf(lb);
  // B's line before the hunk lost its terminator only if it was B's last line; putting A's lines after it needs one.
  if (head.length > 0 && middle.length > 0 && !endsLine(head[head.length - 1]!))
    head[head.length - 1] += terminatorOf(la);
  return head.join('') + middle.join('') + tail.join('');
}

/** A key for a hunk from its texts (not its position, which moves when another hunk is reverted). */
export function hunkKey(a: string, b: string, hunk: LineHunk): string {
  const text = `${splitLines(a).slice(hunk.a[0], hunk.a[1]).join('')}\u0000${splitLines(b).slice(hunk.b[0], hunk.b[1]).join('')}`;
  // FNV-1a, 32 bits twice with different seeds: a label for "kept", not a security boundary.
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
  }
  return `${(h1 >>> 0).toString(36)}${(h2 >>> 0).toString(36)}`;
}

/** The minimal document interface the mapping needs (CodeMirror's `Text`). */
export interface LineDoc {
  readonly length: number;
  readonly lines: number;
  lineAt(pos: number): { number: number };
}

/**
 * A CodeMirror chunk's character range in a document as a line range. A chunk starts at a line start and ends one
 * past its last line's end (which may be past the document's end), or is empty (from === to).
 */
export function lineRange(doc: LineDoc, from: number, to: number): [number, number] {
  const line = (pos: number) => (pos > doc.length ? doc.lines : doc.lineAt(pos).number - 1);
  const start = line(from);
  return [start, to === from ? start : line(to)];
}
