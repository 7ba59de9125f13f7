import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { MARKDOWN_LIMITS, markdownHazard } from './markdown-hazard';

describe('markdown hazard scan: model text marked cannot render in bounded time is shown as plain text', () => {
  it.each([
    ['emphasis run (quadratic in marked)', '_a'.repeat(8000), 'emphasis'],
    ['strong run', '**a'.repeat(4000), 'emphasis'],
    ['nested quotes (marked overflows its stack)', `${'> '.repeat(2000)}x`, 'quote-depth'],
    ['nested quotes without spaces', `${'>'.repeat(40)}x`, 'quote-depth'],
    [
      'a list indented 300 levels',
      Array.from({ length: 300 }, (_, i) => `${' '.repeat(i * 2)}- a`).join('\n'),
      'indent',
    ],
    ['bracket run', '['.repeat(20000), 'brackets'],
    ['a message over 256 KiB', 'word '.repeat(60000), 'too-long'],
  ])('names a %s', (_name, text, hazard) => {
    expect(markdownHazard(text)).toBe(hazard);
  });

  it('lets ordinary answers through: prose, lists, quotes, tables, snake_case and long code blocks', () => {
    const answer = [
      '# Plan',
      '',
      'I will **rename** `foo_bar` to _fooBar_ in [main.ts](src/main.ts):',
      '',
      '- step one',
      '  - nested step',
      '',
      '> a quote',
      '> > a reply',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '```ts',
      // Inside a fence marked parses no inline syntax: delimiters and deep indentation there are free.
      ...Array.from({ length: 200 }, (_, i) => `${' '.repeat(80)}const snake_case_${i} = a * b * c; // ~~ [x]`),
      '```',
    ].join('\n');
    expect(markdownHazard(answer)).toBeUndefined();
  });

  it('counts delimiters per block: many short paragraphs with emphasis are fine', () => {
    const text = Array.from({ length: 400 }, () => 'a *b* and _c_ and ~~d~~').join('\n\n');
    expect(markdownHazard(text)).toBeUndefined();
  });

  it('an unclosed fence keeps the rest as code, as marked does', () => {
    expect(markdownHazard(`\`\`\`\n${'_a'.repeat(5000)}`)).toBeUndefined();
  });

  it('everything the scan lets through at its limits renders with marked without throwing', () => {
    const atLimit = [
      '_a'.repeat(MARKDOWN_LIMITS.maxDelimitersPerBlock / 2),
      `${'> '.repeat(MARKDOWN_LIMITS.maxQuoteDepth)}x`,
      '['.repeat(MARKDOWN_LIMITS.maxBracketsPerBlock),
    ];
    for (const text of atLimit) {
      expect(markdownHazard(text)).toBeUndefined();
      expect(() => marked.parse(text, { async: false, gfm: true })).not.toThrow();
    }
  });
});
