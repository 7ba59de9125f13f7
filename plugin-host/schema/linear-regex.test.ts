import { describe, expect, it } from 'vitest';
import { compileLinearRegex } from './linear-regex';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** Random patterns from the supported grammar over a small alphabet, so matches and near-misses are frequent. */
function randomPattern(next: () => number, depth = 0): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(next() * xs.length)]!;
  const atom = (): string => {
    const r = next();
    if (r < 0.45 || depth > 2) return pick(['a', 'b', 'c', '.', '[ab]', '[^a]', '\\w', '\\s', 'x', '\\.', '[a-c]']);
    if (r < 0.6) return pick(['^', '$', '\\b', '\\B']);
    return `(${pick(['', '?:'])}${randomPattern(next, depth + 1)})`;
  };
  const piece = () => atom() + (next() < 0.4 ? pick(['*', '+', '?', '{2}', '{1,3}', '{0,}', '*?', '+?']) : '');
  const seq = () => Array.from({ length: 1 + Math.floor(next() * 4) }, piece).join('');
  return next() < 0.25 ? `${seq()}|${seq()}` : seq();
}

describe('linear regex', () => {
  it('finds the same leftmost match start as JavaScript RegExp on thousands of random cases', () => {
    const next = lcg(42);
    let compared = 0;
    for (let round = 0; round < 3000; round++) {
      const pattern = randomPattern(next);
      const ignoreCase = next() < 0.3;
      let reference: RegExp;
      try {
        reference = new RegExp(pattern, ignoreCase ? 'i' : '');
      } catch {
        continue; // e.g. a quantified anchor: a syntax error in JavaScript too
      }
      const line = Array.from({ length: Math.floor(next() * 12) }, () => 'aAbBc x.'[Math.floor(next() * 8)]).join('');
      const ours = compileLinearRegex(pattern, { ignoreCase }).search(line);
      expect([pattern, ignoreCase, line, ours]).toEqual([pattern, ignoreCase, line, line.search(reference)]);
      compared++;
    }
    expect(compared).toBeGreaterThan(1500);
  });

  it('handles escapes, classes, groups and anchors', () => {
    const at = (p: string, line: string, ignoreCase = false) => compileLinearRegex(p, { ignoreCase }).search(line);
    expect(at('\\d{3}-\\d{4}', 'call 555-1234 now')).toBe(5);
    expect(at('^\\s*export (?<kind>function|const)\\b', '  export const x')).toBe(0);
    expect(at('[\\w.-]+@[a-z]+\\.com', 'mail me: a.b-c@site.com')).toBe(9);
    expect(at('\\x41\\u0042', 'zAB')).toBe(1);
    expect(at('[\\]\\-]', 'a-b')).toBe(1);
    expect(at('colou?r$', 'the color')).toBe(4);
    expect(at('HELLO', 'say hello', true)).toBe(4);
    expect(at('a{2,3}', 'a aa')).toBe(2);
    expect(at('', 'abc')).toBe(0);
    expect(at('x{', 'ax{')).toBe(1);
  });

  it('names every literal a match must contain, and rules out text that lacks any of them', () => {
    const re = compileLinearRegex('handler\\d+_99\\b');
    expect(re.literals).toEqual(['handler', '_99']);
    expect(re.mayMatch('handler1_98 handler2_9')).toBe(false);
    expect(re.mayMatch('handler1_98 x_99')).toBe(true);
    expect(re.search('handler1_98 x_99')).toBe(-1);
    expect(compileLinearRegex('Foo(?:x|y)+BAR', { ignoreCase: true }).literals).toEqual(['foo', 'bar']);
    expect(compileLinearRegex('a|b').literals).toEqual([]);
    expect(compileLinearRegex('x?y*').literals).toEqual([]);
  });

  it('refuses backreferences and lookaround as unsupported, and bad syntax as invalid', () => {
    const codeOf = (p: string) => {
      try {
        compileLinearRegex(p);
        return 'ok';
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    for (const p of ['(a)\\1', '(?<n>a)\\k<n>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b'])
      expect(codeOf(p), p).toBe('E_SEARCH_REGEX_UNSUPPORTED');
    for (const p of ['(a', 'a)', '*a', 'a**', '[a', '[z-a]', 'a{3,1}', 'a{101}', '\\', '^*'])
      expect(codeOf(p), p).toBe('E_SEARCH_REGEX_INVALID');
    expect(codeOf('(a{1,100}){1,100}')).toBe('E_SEARCH_REGEX_INVALID');
  });

  it('matches patterns that make a backtracking engine run for minutes, on long lines', () => {
    const line = 'ab'.repeat(2000);
    for (const p of ['(a+)+$', '(a|ab)*c', '\\w+\\s*\\w+\\s*=', '.*a.*b.*c.*d', '(x*)*y']) {
      expect(compileLinearRegex(p).search(line), p).toBe(-1);
    }
    expect(compileLinearRegex('(ab)+$').search(line)).toBe(0);
  });
});
