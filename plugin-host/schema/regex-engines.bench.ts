// npm run bench: issue 18's evaluation of re2js (a port of RE2, linear time) against linear-regex.ts, the engine
// `search` and the schema `pattern` checks use. Each line is linear-regex (candidate) against re2js (baseline) on
// the same inputs: ratio < 1 means linear-regex is faster. No target: the faster one is kept (CONTEXT.md).
// - search: the lines of the search bench's files (40-line TypeScript sources), every line tested (no file
//   prefilter), with patterns led by a literal, with a literal inside, and without any literal;
// - hostile: patterns that make a backtracking engine run for minutes, on 4000-character lines that hold their
//   literals (so neither engine can skip the line);
// - schema: typical `pattern`s of tool schemas against short argument strings, compile included (a plan compiles
//   each pattern once per tool call).
import { RE2JS } from 're2js';
import { it } from 'vitest';
import { compare } from '../../scripts/bench-kit';
import { compileLinearRegex } from './linear-regex';

function sourceLines(files: number): string[] {
  const lines: string[] = [];
  for (let i = 0; i < files; i++)
    for (let l = 0; l < 40; l++)
      lines.push(`export function handler${i}_${l}(value: number): number { return value * ${l} + ${i}; }`);
  return lines;
}

function counter(search: (line: string) => boolean, lines: readonly string[]) {
  return () => {
    let n = 0;
    for (const line of lines) if (search(line)) n++;
    return n;
  };
}

const re2 = (pattern: string, ignoreCase: boolean) => {
  const p = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  return (line: string) => p.matcher(line).find();
};
const linear = (pattern: string, ignoreCase: boolean) => {
  const p = compileLinearRegex(pattern, { ignoreCase });
  return (line: string) => p.search(line) >= 0;
};

it('linear-regex vs re2js on search lines, hostile lines and schema patterns', async () => {
  const lines = sourceLines(500);
  const searches: Array<[string, boolean]> = [
    ['handler\\d+_99\\b', true], // the search bench's regex (smart case: no capital, so case-insensitive)
    ['value \\* \\d{3,} \\+', true], // literals in every line, never a match
    ['[a-z]+_[0-9]{3}\\(', false], // no literal to look for
    ['\\w+\\(value: string\\)', false],
  ];
  for (const [pattern, ignoreCase] of searches) {
    const a = counter(re2(pattern, ignoreCase), lines);
    const b = counter(linear(pattern, ignoreCase), lines);
    if (a() !== b()) throw new Error(`the engines disagree on ${pattern}`);
    await compare(
      `regex engines, search lines: ${pattern}`,
      { label: 're2js', run: a },
      { label: 'linear-regex', run: b },
      { runs: 5, warmup: 1 },
    );
  }

  const hostile: Array<[string, string]> = [
    ['\\w+\\s*\\w+\\s*=', `${'ab '.repeat(1333)}=`],
    ['.*a.*b.*c.*d', `${'d'.repeat(1000)}${'a'.repeat(1000)}${'b'.repeat(1000)}${'c'.repeat(1000)}`],
    ['(x+x+)+y', `${'x'.repeat(3998)}zy`],
    ['(a|aa)*c', `${'a'.repeat(3998)}bc`],
    ['(\\w+\\s?)+$', `${'word '.repeat(799)}!`],
  ];
  for (const [pattern, line] of hostile) {
    const many = Array.from({ length: 50 }, () => line);
    const a = counter(re2(pattern, false), many);
    const b = counter(linear(pattern, false), many);
    if (a() !== b()) throw new Error(`the engines disagree on ${pattern}`);
    await compare(
      `regex engines, hostile 4000-char lines: ${pattern}`,
      { label: 're2js', run: a },
      { label: 'linear-regex', run: b },
      { runs: 5, warmup: 1 },
    );
  }

  const schema: Array<[string, string[]]> = [
    ['^[a-z0-9_-]{1,64}$', ['count_words', 'Bad Name', 'x'.repeat(70), 'ok-1']],
    ['^\\d{4}-\\d{2}-\\d{2}$', ['2026-12-02', '2026-1-2', 'not a date']],
    ['^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$', ['a@b.io', 'nobody', 'x@y']],
    ['^(?:https?://)?[\\w.-]+(?::\\d+)?(?:/[\\w./-]*)?$', ['https://example.com:8080/a/b', 'ftp://x', 'localhost']],
  ];
  for (const [pattern, values] of schema) {
    const strings = Array.from({ length: 200 }, (_, i) => values[i % values.length]!);
    // Per call: compile the pattern, test every string of the arguments.
    const a = () => counter(re2(pattern, false), strings)();
    const b = () => counter(linear(pattern, false), strings)();
    if (a() !== b()) throw new Error(`the engines disagree on ${pattern}`);
    const calls = (f: () => number) => () => {
      for (let i = 0; i < 100; i++) f();
    };
    await compare(
      `regex engines, schema pattern (compile + 200 strings): ${pattern}`,
      { label: 're2js', run: calls(a) },
      { label: 'linear-regex', run: calls(b) },
      { runs: 5, warmup: 1 },
    );
  }
});
