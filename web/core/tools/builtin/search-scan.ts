// How `search` finds matching lines in one decoded file. The judge of a match is always `LineTest.line` on one line
// (its first SEARCH_MAX_LINE_CHARS characters, a trailing CR dropped); the rest only decides which lines it sees.
// Most files of a typical search hold no match, and most lines of the rest hold none either, so the text is searched
// as a whole for the strings every match contains (the literal itself, or a regex's required literals: the way
// ripgrep avoids its regex engine) and only the lines around those hits are cut out and tested; line numbers are
// counted only up to a hit. `scanLines`, which tests every line, is the reference this must agree with
// (`search-scan.test.ts`) and the path for patterns without such strings.
import { HarnessError } from '../../contracts';
import { SEARCH_MAX_LINE_CHARS, SEARCH_MAX_PATTERN_CHARS, SEARCH_SNIPPET_CHARS } from '../../contracts';
import { compileLinearRegex } from './linear-regex';

export interface LineTest {
  /** Where the first match in the line starts, or -1. The one judge of a match: the fast path only picks lines. */
  line(line: string): number;
  /**
   * Strings every matching line contains (lower-cased when `fold`): the literal itself, or a regex's required
   * literals, longest first. Empty when there are none: every line is then tested.
   */
  needles: readonly string[];
  /** The needles are lower-case and are looked for in lower-cased text. */
  fold: boolean;
}

export interface ScanBudget {
  /** Matches still wanted (the caller's cap + 1, so it can say there were more). */
  left: number;
  deadline: number;
  now: () => number;
  timedOut: boolean;
}

export function lineTest(tool: string, pattern: string, regex: boolean, caseSensitive: boolean): LineTest {
  if (pattern.length > SEARCH_MAX_PATTERN_CHARS) {
    throw new HarnessError(
      'E_SEARCH_PATTERN_TOO_LONG',
      `The pattern is ${pattern.length} characters; ${tool} accepts at most ${SEARCH_MAX_PATTERN_CHARS}. Search for a shorter, distinctive part.`,
    );
  }
  if (!regex) {
    if (caseSensitive) return { line: (line) => line.indexOf(pattern), needles: [pattern], fold: false };
    const lower = pattern.toLowerCase();
    return { line: (line) => line.toLowerCase().indexOf(lower), needles: [lower], fold: true };
  }
  // Never a RegExp: user patterns run on the linear-time engine, so no pattern can hang the tab or the CLI.
  const re = compileLinearRegex(pattern, { ignoreCase: !caseSensitive });
  return { line: (line) => re.search(line), needles: re.literals, fold: !caseSensitive };
}

function snippet(line: string, at: number): string {
  const clean = line.replace(/\t/g, ' ');
  if (clean.length <= SEARCH_SNIPPET_CHARS) return clean.trim();
  const from = Math.max(0, Math.min(at - 40, clean.length - SEARCH_SNIPPET_CHARS));
  return `${from > 0 ? '…' : ''}${clean.slice(from, from + SEARCH_SNIPPET_CHARS).trim()}…`;
}

/** Tests the line from `start` to `end` (its `\n`) as the reference does, and records a hit. */
function testLine(
  path: string,
  text: string,
  start: number,
  end: number,
  no: number,
  test: LineTest,
  hits: string[],
  budget: ScanBudget,
): void {
  let line = text.slice(start, Math.min(end, start + SEARCH_MAX_LINE_CHARS));
  if (line.endsWith('\r')) line = line.slice(0, -1);
  const at = test.line(line);
  if (at >= 0) {
    hits.push(`${path}:${no}: ${snippet(line, at)}`);
    budget.left--;
  }
}

/** Every line, in order: the reference behaviour. */
export function scanLines(path: string, text: string, test: LineTest, budget: ScanBudget): string[] {
  const hits: string[] = [];
  let start = 0;
  for (let no = 1; start <= text.length && budget.left > 0; no++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if ((no & 1023) === 0 && budget.now() > budget.deadline) {
      budget.timedOut = true;
      break;
    }
    testLine(path, text, start, end, no, test, hits, budget);
    if (end === text.length) break;
    start = end + 1;
  }
  return hits;
}

/** The matching lines of `text` as `path:line: snippet`, at most `budget.left` of them. Same result as scanLines. */
export function scanText(path: string, text: string, test: LineTest, budget: ScanBudget): string[] {
  const { needles } = test;
  if (needles.length === 0) return scanLines(path, text, test, budget);
  let hay = text;
  if (test.fold) {
    hay = text.toLowerCase();
    // Offsets in the lower-cased text are those of the text only if no character changed length ("İ" becomes two
    // code units), and a line's lower case is its part of the whole only if no capital sigma can turn final or
    // not at a line's 4000-character cut. Otherwise every line is lower-cased on its own, as the reference does.
    if (hay.length !== text.length || text.includes('Σ')) return scanLines(path, text, test, budget);
  }
  for (const needle of needles) if (!hay.includes(needle)) return [];
  const first = needles[0]!;
  // Where each other needle next occurs at or after the current line; they only move forward, so the scan stays
  // linear however many lines the first needle picks.
  const next = needles.map(() => -1);
  const hits: string[] = [];
  let no = 1;
  let counted = 0; // the line that starts here is line `no`
  let from = 0;
  scan: for (let k = 1; budget.left > 0; k++) {
    const hit = hay.indexOf(first, from);
    if (hit < 0) break;
    if ((k & 1023) === 0 && budget.now() > budget.deadline) {
      budget.timedOut = true;
      break;
    }
    const start = hit === 0 ? 0 : text.lastIndexOf('\n', hit - 1) + 1;
    let end = text.indexOf('\n', hit);
    if (end < 0) end = text.length;
    // A line lacking another needle cannot match: go on from the line where that needle occurs next.
    let ahead = -1;
    for (let j = 1; j < needles.length; j++) {
      if (next[j]! < start) next[j] = hay.indexOf(needles[j]!, start);
      if (next[j]! < 0) break scan;
      if (next[j]! + needles[j]!.length > end) ahead = Math.max(ahead, next[j]!);
    }
    if (ahead >= 0) {
      from = Math.max(end + 1, text.lastIndexOf('\n', ahead - 1) + 1);
      continue;
    }
    for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < start; nl = text.indexOf('\n', nl + 1)) no++;
    counted = start;
    testLine(path, text, start, end, no, test, hits, budget);
    if (end >= text.length) break;
    from = end + 1;
  }
  return hits;
}
