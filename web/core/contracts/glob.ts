// A small glob matcher for workspace paths, written out instead of compiled to a RegExp so that no pattern can
// backtrack without bound: `*` inside a segment uses the linear two-pointer match, `**` segments use a
// segments × segments table. Syntax: `**` (any number of folders, as a whole segment), `*` (any characters but
// `/`), `?` (one character), `[abc]`, `[a-z]`, `[!x]` / `[^x]`, `{a,b}` (nested allowed, expanded first, at most
// GLOB_MAX_ALTERNATIVES), `\` escapes the next character. Matching is case-sensitive on whole paths.
import { HarnessError } from './errors';
import { GLOB_MAX_ALTERNATIVES, GLOB_MAX_PATTERN_CHARS } from './tool-limits';

type Token =
  | { t: 'char'; c: string }
  | { t: 'any' }
  | { t: 'star' }
  | { t: 'class'; negate: boolean; ranges: Array<[string, string]> };
type Segment = { globstar: true } | { globstar: false; tokens: Token[] };

function globError(pattern: string, why: string): HarnessError {
  return new HarnessError(
    'E_GLOB_PATTERN',
    `The glob pattern ${JSON.stringify(pattern.slice(0, 200))} is not valid: ${why}.`,
    { pattern: pattern.slice(0, 200) },
  );
}

/** Expands `{a,b}` alternatives (nested allowed) into plain patterns. */
export function expandBraces(pattern: string, max = GLOB_MAX_ALTERNATIVES): string[] {
  let open = -1;
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close > 0) i = close;
      continue;
    }
    if (c === '{') {
      if (depth === 0) open = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        const parts = splitTop(pattern.slice(open + 1, i));
        if (parts.length < 2) continue; // `{x}` is literal, like bash
        const head = pattern.slice(0, open);
        const tail = pattern.slice(i + 1);
        const out: string[] = [];
        for (const part of parts) {
          for (const expanded of expandBraces(head + part + tail, max)) {
            if (out.length >= max)
              throw globError(pattern, `it expands to more than ${max} alternatives; use fewer {a,b} groups`);
            if (!out.includes(expanded)) out.push(expanded);
          }
        }
        return out;
      }
    }
  }
  if (depth > 0) throw globError(pattern, 'a "{" is never closed');
  return [pattern];
}

function splitTop(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function tokenize(segment: string, pattern: string): Token[] {
  const tokens: Token[] = [];
  const chars = Array.from(segment);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\') {
      if (i + 1 >= chars.length) throw globError(pattern, 'it ends with a lone "\\"');
      tokens.push({ t: 'char', c: chars[++i]! });
    } else if (c === '*') {
      if (tokens.at(-1)?.t !== 'star') tokens.push({ t: 'star' });
    } else if (c === '?') {
      tokens.push({ t: 'any' });
    } else if (c === '[') {
      let j = i + 1;
      const negate = chars[j] === '!' || chars[j] === '^';
      if (negate) j++;
      const ranges: Array<[string, string]> = [];
      let first = true;
      for (; j < chars.length && (chars[j] !== ']' || first); j++) {
        first = false;
        let lo = chars[j]!;
        if (lo === '\\' && j + 1 < chars.length) lo = chars[++j]!;
        if (chars[j + 1] === '-' && j + 2 < chars.length && chars[j + 2] !== ']') {
          let hi = chars[j + 2]!;
          j += 2;
          if (hi === '\\' && j + 1 < chars.length) hi = chars[++j]!;
          if (hi < lo) throw globError(pattern, `the range ${lo}-${hi} is reversed`);
          ranges.push([lo, hi]);
        } else {
          ranges.push([lo, lo]);
        }
      }
      if (j >= chars.length) throw globError(pattern, 'a "[" is never closed');
      tokens.push({ t: 'class', negate, ranges });
      i = j;
    } else {
      tokens.push({ t: 'char', c });
    }
  }
  return tokens;
}

function tokenMatches(token: Token, c: string): boolean {
  switch (token.t) {
    case 'char':
      return token.c === c;
    case 'any':
      return true;
    case 'class': {
      const hit = token.ranges.some(([lo, hi]) => c >= lo && c <= hi);
      return hit !== token.negate;
    }
    default:
      return false;
  }
}

/**
 * Linear-time wildcard match of one path segment (the classic two-pointer algorithm with one backtrack point).
 * `dot` false: a name starting with '.' matches only a pattern starting with a literal '.' (no `*`, `?` or class).
 */
function matchSegment(tokens: Token[], name: string, dot = true): boolean {
  if (!dot && name.startsWith('.') && !(tokens[0]?.t === 'char' && tokens[0].c === '.')) return false;
  const s = Array.from(name);
  let ti = 0;
  let si = 0;
  let starTi = -1;
  let starSi = 0;
  while (si < s.length) {
    const token = tokens[ti];
    if (token && token.t !== 'star' && tokenMatches(token, s[si]!)) {
      ti++;
      si++;
    } else if (token?.t === 'star') {
      starTi = ti++;
      starSi = si;
    } else if (starTi >= 0) {
      ti = starTi + 1;
      si = ++starSi;
    } else {
      return false;
    }
  }
  while (tokens[ti]?.t === 'star') ti++;
  return ti === tokens.length;
}

export interface GlobMatcher {
  /** True when the workspace-relative path (no leading `/`) matches. */
  matches(path: string): boolean;
  /** The longest folder prefix without wildcards shared by every alternative ('' for the root). */
  readonly base: string;
  /** True when some alternative names a hidden segment (starting with '.') explicitly. */
  readonly mentionsHidden: boolean;
  /** Names of skipped folders that some alternative names literally. */
  readonly mentioned: ReadonlySet<string>;
}

function compileOne(pattern: string, original: string): Segment[] {
  const parts = pattern.split('/').filter((p) => p !== '' && p !== '.');
  return parts.map((part) =>
    part === '**' ? { globstar: true } : { globstar: false, tokens: tokenize(part, original) },
  );
}

function matchSegments(segs: Segment[], names: string[], dot: boolean): boolean {
  // memo[i][j]: does segs[i..] match names[j..]? Filled backwards; O(segs × names).
  const rows = segs.length + 1;
  const cols = names.length + 1;
  const memo = new Uint8Array(rows * cols);
  memo[segs.length * cols + names.length] = 1;
  for (let i = segs.length - 1; i >= 0; i--) {
    const seg = segs[i]!;
    for (let j = names.length; j >= 0; j--) {
      let ok: boolean;
      // Without `dot`, `**` does not cross a segment starting with '.'.
      if (seg.globstar)
        ok =
          memo[(i + 1) * cols + j] === 1 ||
          (j < names.length && (dot || !names[j]!.startsWith('.')) && memo[i * cols + j + 1] === 1);
      else ok = j < names.length && matchSegment(seg.tokens, names[j]!, dot) && memo[(i + 1) * cols + j + 1] === 1;
      memo[i * cols + j] = ok ? 1 : 0;
    }
  }
  return memo[0] === 1;
}

function literalOf(seg: Segment): string | null {
  if (seg.globstar) return null;
  let out = '';
  for (const t of seg.tokens) {
    if (t.t !== 'char') return null;
    out += t.c;
  }
  return out;
}

export interface GlobOptions {
  /**
   * Whether `*`, `?`, a class and `**` match a leading '.' of a segment (default true, what glob and search use:
   * they skip hidden entries by walking, not by matching). False: only a pattern naming the dot (`src/.*`,
   * `.github/**`) matches a hidden segment — approval rules' allow (web/core/approval/rules.ts).
   */
  dot?: boolean;
}

export function compileGlob(pattern: string, options: GlobOptions = {}): GlobMatcher {
  const dot = options.dot ?? true;
  if (pattern.length === 0) throw globError(pattern, 'it is empty');
  if (pattern.length > GLOB_MAX_PATTERN_CHARS)
    throw globError(pattern, `it is longer than ${GLOB_MAX_PATTERN_CHARS} characters`);
  if (pattern.startsWith('/'))
    throw globError(pattern, 'it starts with "/"; patterns are relative to the workspace root');
  const alternatives = expandBraces(pattern).map((p) => compileOne(p.replace(/^\.\//, ''), pattern));
  const mentioned = new Set<string>();
  let mentionsHidden = false;
  const prefixes: string[][] = [];
  for (const segs of alternatives) {
    const prefix: string[] = [];
    let literal = true;
    segs.forEach((seg, i) => {
      const lit = literalOf(seg);
      if (lit !== null) mentioned.add(lit);
      if (lit?.startsWith('.') || (!seg.globstar && seg.tokens[0]?.t === 'char' && seg.tokens[0].c === '.'))
        mentionsHidden = true;
      if (literal && lit !== null && i < segs.length - 1) prefix.push(lit);
      else literal = false;
    });
    prefixes.push(prefix);
  }
  const common: string[] = [];
  for (let i = 0; prefixes.every((p) => p[i] !== undefined && p[i] === prefixes[0]![i]); i++)
    common.push(prefixes[0]![i]!);
  return {
    base: common.join('/'),
    mentionsHidden,
    mentioned,
    matches(path: string): boolean {
      const names = path.split('/');
      return alternatives.some((segs) => matchSegments(segs, names, dot));
    },
  };
}
