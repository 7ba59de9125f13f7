// What a tool card says in one sentence, and the diff an applied write or edit keeps. Pure (unit-tested in Node):
// the sentence is read from the call's arguments and its result as the session log keeps them, so a reload says
// the same ("Searched for `needle` in src/ — 12 matches in 4 files", "Read src/a.ts (lines 1–200)").
// Results are untrusted text: only figures are taken from them (counts, line numbers), never words.
import { APPLIED_DIFF_HEADER, APPLIED_DIFF_MAX_CHARS, escapeControls, shownPathArgument } from '../../core/contracts';
import type { ToolView } from './chat-model';
import type { ToolSentenceKey } from './tool-sentence-strings';

/** A sentence key and its parameters; `code` names the parameters shown as code (a pattern, a glob). */
export interface ToolSentence {
  key: ToolSentenceKey;
  params: Record<string, string | number>;
  code: string[];
  /** Parameters said as counted words ("1 match", "12 matches"): translated before the sentence is filled. */
  counted?: Record<string, Counted>;
}

/** A count and the keys that say it: `one` for exactly 1, else `many` (with `{n}`, which may read "200+"). */
export interface Counted {
  n: number | string;
  one: ToolSentenceKey;
  many: ToolSentenceKey;
}

const argsOf = (raw: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One line, bounded: a pattern as the model sent it, controls shown escaped (as the cards' other briefs do). */
const oneLine = (s: string, max = 80) => {
  const flat = escapeControls(s, { keepLayout: false });
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The sentence for a built-in tool whose result reads as one (read, glob, search, view_image, write, edit). */
export function toolSentence(tool: ToolView): ToolSentence | null {
  const a = argsOf(tool.args);
  const r = tool.result;
  const ok = r !== undefined && !r.error;
  const text = r ? (r.full ?? r.output) : '';
  const path = str(a.path) ? shownPathArgument(a.path as string) : undefined;
  switch (tool.name) {
    case 'read': {
      if (!path) return null;
      if (!ok) return { key: 'ts.read', params: { path }, code: [] };
      if (/^\(.* is empty\)$/s.test(text)) return { key: 'ts.readEmpty', params: { path }, code: [] };
      const numbers = [...text.matchAll(/^ *(\d+)\t/gm)].map((m) => Number(m[1]));
      if (numbers.length === 0) return { key: 'ts.read', params: { path }, code: [] };
      const of = /\[showing lines \d+-\d+ of (\d+);/.exec(text);
      const params = { path, from: numbers[0]!, to: numbers.at(-1)! };
      return of
        ? { key: 'ts.readLinesOf', params: { ...params, total: Number(of[1]) }, code: [] }
        : { key: 'ts.readLines', params, code: [] };
    }
    case 'view_image':
      return path ? { key: 'ts.viewImage', params: { path }, code: [] } : null;
    case 'glob': {
      const pattern = str(a.pattern);
      if (!pattern) return null;
      const params = { pattern: oneLine(pattern) };
      if (!ok) return { key: 'ts.globPending', params, code: ['pattern'] };
      const paths = resultLines(text).filter((l) => !l.startsWith('No files match '));
      if (paths.length === 0) return { key: 'ts.globNone', params, code: ['pattern'] };
      const more = text.includes('\n[more paths not shown');
      return {
        key: more ? 'ts.globMore' : paths.length === 1 ? 'ts.glob1' : 'ts.glob',
        params: { ...params, n: paths.length },
        code: ['pattern'],
      };
    }
    case 'search': {
      const pattern = str(a.pattern);
      if (!pattern) return null;
      const where = str(a.path) ? shownPathArgument(a.path as string) : undefined;
      const params: Record<string, string | number> = { pattern: oneLine(pattern), ...(where ? { path: where } : {}) };
      const code = ['pattern'];
      if (!ok) return { key: where ? 'ts.searchPendingIn' : 'ts.searchPending', params, code };
      const hits = resultLines(text)
        .map((l) => /^(.+?):(\d+): /.exec(l)?.[1])
        .filter((p): p is string => p !== undefined);
      if (hits.length === 0) return { key: where ? 'ts.searchNoneIn' : 'ts.searchNone', params, code };
      const files = new Set(hits).size;
      const more = text.includes('\n[more matches not shown');
      return {
        key: where ? 'ts.searchIn' : 'ts.search',
        params,
        code,
        counted: {
          matches: { n: more ? `${hits.length}+` : hits.length, one: 'ts.oneMatch', many: 'ts.nMatches' },
          files: { n: files, one: 'ts.oneFile', many: 'ts.nFiles' },
        },
      };
    }
    case 'edit':
      return path ? { key: ok ? 'ts.edited' : 'ts.edit', params: { path }, code: [] } : null;
    case 'write': {
      if (!path) return null;
      if (!ok) return { key: 'ts.write', params: { path }, code: [] };
      return { key: text.startsWith('Created ') ? 'ts.created' : 'ts.wrote', params: { path }, code: [] };
    }
    default:
      return null;
  }
}

/** A result's lines without the notes the tools add in brackets (`[more … not shown]`, `[skipped files: …]`). */
function resultLines(text: string): string[] {
  return text.split('\n').filter((l) => l !== '' && !l.startsWith('['));
}

/**
 * The diff an applied write or edit keeps in the log: what the tool put after `Diff of what was written:` (cut at
 * APPLIED_DIFF_MAX_CHARS by the tool), or, for a file the call created, its content as added lines (the content is
 * the call's own argument; `created` makes that diff, the page's unifiedDiff). Null when there is none.
 */
export function loggedDiff(tool: ToolView, created: (content: string, path: string) => string): string | null {
  const r = tool.result;
  if (!r || r.error || (tool.name !== 'edit' && tool.name !== 'write')) return null;
  const text = r.full ?? r.output;
  const at = text.indexOf(`\n${APPLIED_DIFF_HEADER}\n`);
  if (at >= 0) return text.slice(at + APPLIED_DIFF_HEADER.length + 2);
  if (tool.name === 'write' && text.startsWith('Created ')) {
    const a = argsOf(tool.args);
    const content = typeof a.content === 'string' ? a.content : null;
    const path = /^Created (.+) \(\d+ bytes\)\./.exec(text)?.[1];
    if (content !== null && path && content !== '') return created(content, path) || null;
  }
  return null;
}

/** Lines added and removed in a unified diff (counted inside hunks: the `---`/`+++` headers are not lines). */
export function diffCounts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}

/** The bound a created file's diff is cut at, the same as the tools' applied diff. */
export const CREATED_DIFF_MAX_CHARS = APPLIED_DIFF_MAX_CHARS;
