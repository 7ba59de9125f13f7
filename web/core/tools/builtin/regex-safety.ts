// JavaScript regular expressions cannot be interrupted, so `search` refuses the pattern shapes that backtrack
// exponentially before running them: a repeated group that itself contains a quantifier or an alternation
// (`(a+)+`, `(a|a)*`), backreferences and lookbehind. It also caps unbounded quantifiers, the pattern length and
// the characters of each line tested (limits.ts). What remains is at worst polynomial in a capped line length, and
// a wall-clock budget is checked between lines. This is a conservative filter, not a proof: CONTEXT.md says so.
import { SEARCH_MAX_UNBOUNDED_QUANTIFIERS } from './limits';

interface Group {
  quantified: boolean;
  alternation: boolean;
}

/** Null when the pattern is accepted, else a sentence saying what to change. */
export function unsafeRegexReason(pattern: string): string | null {
  const stack: Group[] = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  // After a closing group, `quantifiedNext` is the group that a following quantifier would repeat.
  let closed: Group | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    const top = stack[stack.length - 1]!;
    const justClosed = closed;
    closed = null;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'backreferences (\\1, \\k<name>) are not supported; search for the text itself';
      i++;
      continue;
    }
    if (c === '[') {
      for (i++; i < pattern.length && pattern[i] !== ']'; i++) if (pattern[i] === '\\') i++;
      continue;
    }
    if (c === '(') {
      if (pattern.startsWith('?<=', i + 1) || pattern.startsWith('?<!', i + 1)) return 'lookbehind ((?<=…), (?<!…)) is not supported; match the surrounding text instead';
      stack.push({ quantified: false, alternation: false });
      continue;
    }
    if (c === ')') {
      if (stack.length > 1) {
        const group = stack.pop()!;
        const parent = stack[stack.length - 1]!;
        parent.quantified ||= group.quantified;
        parent.alternation ||= group.alternation;
        closed = group;
      }
      continue;
    }
    if (c === '|') {
      top.alternation = true;
      continue;
    }
    let repeats = false;
    let isUnbounded = false;
    if (c === '*' || c === '+') {
      repeats = true;
      isUnbounded = true;
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (m) {
        isUnbounded = m[2] !== undefined && m[3] === '';
        repeats = isUnbounded || (m[3] !== undefined && Number(m[3]) > 1) || Number(m[1]) > 1;
        i += m[0].length - 1;
      }
    } else if (c === '?') {
      // `x?` repeats at most once; a lazy suffix (`*?`) is not a new quantifier.
      continue;
    }
    if (!repeats) continue;
    if (isUnbounded && ++unbounded > SEARCH_MAX_UNBOUNDED_QUANTIFIERS) {
      return `it has more than ${SEARCH_MAX_UNBOUNDED_QUANTIFIERS} unbounded quantifiers (*, +, {n,}); use fewer, or search for a literal part`;
    }
    if (justClosed && (justClosed.quantified || justClosed.alternation)) {
      return 'a repeated group contains a quantifier or "|" (like (a+)+ or (a|b)*), which can run for hours; use a character class such as [ab]+ or repeat a simpler group';
    }
    top.quantified = true;
  }
  return null;
}
