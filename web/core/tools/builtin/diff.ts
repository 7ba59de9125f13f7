// A bounded, line-based unified diff (Myers' O(ND) algorithm) for the approval prompt of `write` and `edit`.
// Bounds: common prefix and suffix are trimmed first; if the remaining edit distance exceeds `maxEdits`, the middle
// becomes one delete-all/insert-all hunk (still a correct diff, only not minimal); the text is cut at `maxChars`
// with a marker line. Memory is O(maxEdits²) integers for the trace; time O((lines) × edits), capped (limits.ts).
import { DIFF_MAX_CHARS, DIFF_MAX_EDITS, DIFF_MAX_WORK } from './limits';

export interface DiffOptions {
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
  maxEdits?: number;
  maxChars?: number;
}

type Op = { kind: ' ' | '-' | '+'; line: string; oldNo: number; newNo: number };

interface Lines {
  lines: string[];
  /** False when the text does not end with a newline (and is not empty). */
  finalNewline: boolean;
}

function splitLines(text: string): Lines {
  if (text === '') return { lines: [], finalNewline: true };
  const lines = text.split('\n');
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

/** Edit script between a and b as ' ', '-', '+' per line, or null when more than maxEdits edits are needed. */
function myers(a: number[], b: number[], maxEdits: number): Array<' ' | '-' | '+'> | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits, Math.floor(DIFF_MAX_WORK / Math.max(1, n + m)));
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 2);
  const trace: Int32Array[] = [];
  let found = -1;
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break outer;
      }
    }
  }
  if (found < 0) return null;
  const script: Array<' ' | '-' | '+'> = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const vd = trace[d]!;
    const at = (k: number) => vd[k + d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      script.push(' ');
      x--;
      y--;
    }
    if (x === prevX) {
      script.push('+');
      y--;
    } else {
      script.push('-');
      x--;
    }
  }
  while (x > 0 && y > 0) {
    script.push(' ');
    x--;
    y--;
  }
  return script.reverse();
}

/** Line operations from old to new, with 1-based line numbers on both sides. */
function diffOps(oldLines: string[], newLines: string[], maxEdits: number): Op[] {
  let start = 0;
  while (start < oldLines.length && start < newLines.length && oldLines[start] === newLines[start]) start++;
  let endOld = oldLines.length;
  let endNew = newLines.length;
  while (endOld > start && endNew > start && oldLines[endOld - 1] === newLines[endNew - 1]) {
    endOld--;
    endNew--;
  }
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  const a = oldLines.slice(start, endOld).map(idOf);
  const b = newLines.slice(start, endNew).map(idOf);
  const script = myers(a, b, maxEdits) ?? [...a.map(() => '-' as const), ...b.map(() => '+' as const)];
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  for (; i < start; i++, j++) ops.push({ kind: ' ', line: oldLines[i]!, oldNo: i + 1, newNo: j + 1 });
  for (const kind of script) {
    if (kind === ' ') {
      ops.push({ kind, line: oldLines[i]!, oldNo: i + 1, newNo: j + 1 });
      i++;
      j++;
    } else if (kind === '-') {
      ops.push({ kind, line: oldLines[i]!, oldNo: i + 1, newNo: j });
      i++;
    } else {
      ops.push({ kind, line: newLines[j]!, oldNo: i, newNo: j + 1 });
      j++;
    }
  }
  for (; i < oldLines.length; i++, j++) ops.push({ kind: ' ', line: oldLines[i]!, oldNo: i + 1, newNo: j + 1 });
  return ops;
}

/**
 * Unified diff of two texts (`--- a/…`, `+++ b/…`, `@@ -l,s +l,s @@` hunks). Empty string when they are equal.
 * `oldName` null means the file did not exist (`--- /dev/null`).
 */
export function unifiedDiff(oldText: string, newText: string, oldName: string | null, newName: string, options: DiffOptions = {}): string {
  if (oldText === newText) return '';
  const context = options.context ?? 3;
  const maxChars = options.maxChars ?? DIFF_MAX_CHARS;
  const before = splitLines(oldText);
  const after = splitLines(newText);
  // A changed final newline changes the last line: compare with a marker so the diff shows it.
  const eol = '\u0000noeol';
  const oldLines = before.finalNewline || before.lines.length === 0 ? before.lines : [...before.lines.slice(0, -1), before.lines.at(-1)! + eol];
  const newLines = after.finalNewline || after.lines.length === 0 ? after.lines : [...after.lines.slice(0, -1), after.lines.at(-1)! + eol];
  const ops = diffOps(oldLines, newLines, options.maxEdits ?? DIFF_MAX_EDITS);

  const out: string[] = [`--- ${oldName === null ? '/dev/null' : `a/${oldName}`}`, `+++ b/${newName}`];
  let size = out[0]!.length + out[1]!.length + 2;
  let cut = false;
  const push = (line: string): boolean => {
    if (size + line.length + 1 > maxChars) {
      cut = true;
      return false;
    }
    out.push(line);
    size += line.length + 1;
    return true;
  };

  let idx = 0;
  while (idx < ops.length && !cut) {
    while (idx < ops.length && ops[idx]!.kind === ' ') idx++;
    if (idx >= ops.length) break;
    const from = Math.max(0, idx - context);
    // Extend the hunk while the next change is within 2 × context unchanged lines.
    let to = idx;
    let quiet = 0;
    for (let p = idx; p < ops.length; p++) {
      if (ops[p]!.kind === ' ') {
        quiet++;
        if (quiet > 2 * context) break;
      } else {
        quiet = 0;
        to = p;
      }
    }
    const end = Math.min(ops.length, to + context + 1);
    const slice = ops.slice(from, end);
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    const first = slice[0]!;
    const oldStart = oldCount === 0 ? first.oldNo : first.kind === '+' ? first.oldNo + 1 : first.oldNo;
    const newStart = newCount === 0 ? first.newNo : first.kind === '-' ? first.newNo + 1 : first.newNo;
    if (!push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`)) break;
    for (const op of slice) {
      const noEol = op.line.endsWith(eol);
      const text = noEol ? op.line.slice(0, -eol.length) : op.line;
      if (!push(`${op.kind}${text}`)) break;
      if (noEol && !push('\\ No newline at end of file')) break;
    }
    idx = end;
  }
  if (cut) out.push(`[diff truncated at ${maxChars} characters]`);
  return `${out.join('\n')}\n`;
}
