// A bounded, line-based unified diff for the approval prompt of `write` and `edit` (and plugin writes). The edit
// script is jsdiff's (`diffArrays`, Myers' O(ND) algorithm with its `maxEditLength` and `timeout` bounds); the
// hunks are printed here, in the exact form the approval view and tests expect. Bounds: common prefix and suffix
// are trimmed first; if jsdiff gives up on the middle, it becomes one delete-all/insert-all hunk (still a correct
// diff, only not minimal); the text is cut at `maxChars` with a marker line (limits.ts).
import { diffArrays } from 'diff';
import { DIFF_MAX_CHARS, DIFF_MAX_EDITS, DIFF_MAX_WORK, DIFF_TIMEOUT_MS } from '../../contracts';

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

/**
 * Edit script between a and b as ' ', '-', '+' per line (deletions before insertions in a changed block), or null
 * when jsdiff gives up: more than `maxEdits` edits, or DIFF_TIMEOUT_MS spent. Its Myers search costs
 * (lines × edits) steps, so the edit bound also shrinks to DIFF_MAX_WORK / lines: on large files the fallback
 * comes after a bounded amount of work, the same on every machine, and the timeout is only a backstop.
 */
function editScript(a: string[], b: string[], maxEdits: number): Array<' ' | '-' | '+'> | null {
  const maxEditLength = Math.min(
    a.length + b.length,
    maxEdits,
    Math.floor(DIFF_MAX_WORK / Math.max(1, a.length + b.length)),
  );
  const changes = diffArrays(a, b, { maxEditLength, timeout: DIFF_TIMEOUT_MS });
  if (!changes) return null;
  const script: Array<' ' | '-' | '+'> = [];
  for (const change of changes) {
    const kind = change.added ? '+' : change.removed ? '-' : ' ';
    for (let i = 0; i < change.count; i++) script.push(kind);
  }
  return script;
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
  const a = oldLines.slice(start, endOld);
  const b = newLines.slice(start, endNew);
  const script = editScript(a, b, maxEdits) ?? [...a.map(() => '-' as const), ...b.map(() => '+' as const)];
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
export function unifiedDiff(
  oldText: string,
  newText: string,
  oldName: string | null,
  newName: string,
  options: DiffOptions = {},
): string {
  if (oldText === newText) return '';
  const context = options.context ?? 3;
  const maxChars = options.maxChars ?? DIFF_MAX_CHARS;
  const before = splitLines(oldText);
  const after = splitLines(newText);
  // A changed final newline changes the last line: compare with a marker so the diff shows it.
  const eol = '\u0000noeol';
  const oldLines =
    before.finalNewline || before.lines.length === 0
      ? before.lines
      : [...before.lines.slice(0, -1), before.lines.at(-1)! + eol];
  const newLines =
    after.finalNewline || after.lines.length === 0
      ? after.lines
      : [...after.lines.slice(0, -1), after.lines.at(-1)! + eol];
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
