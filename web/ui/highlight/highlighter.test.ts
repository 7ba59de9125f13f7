import { describe, expect, it } from 'vitest';
import { HIGHLIGHT_LIMITS, highlight, highlightedBefore, languageOf, resolveLanguage } from './highlighter';
import { LANGUAGES } from './languages';

const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('highlight', () => {
  it('colours TypeScript tokens with light/dark class pairs and keeps the exact text, escaped', async () => {
    const code = 'const a: Array<string> = ["<b>&"]; // done\nexport {}';
    const out = await highlight(code, 'ts');
    expect(out?.lang).toBe('typescript');
    expect(out!.html).toMatch(/<span class="hl-[0-9a-f]+-[0-9a-f]+">const<\/span>/);
    expect(out!.html).not.toContain('<b>');
    expect(out!.html).not.toContain('style=');
    expect(textOf(out!.html)).toBe(code);
    expect(highlightedBefore(code, 'typescript')).toBe(out);
  });

  it('returns null for an unknown language and for code past the bounds', async () => {
    expect(await highlight('x', 'no-such-language')).toBeNull();
    expect(await highlight('x', undefined)).toBeNull();
    expect(await highlight('a'.repeat(HIGHLIGHT_LIMITS.maxChars + 1), 'js')).toBeNull();
    expect(await highlight('\n'.repeat(HIGHLIGHT_LIMITS.maxLines), 'js')).toBeNull();
  });

  it('leaves the rest of a very long line untokenised but complete', async () => {
    const line = `let s = "${'x'.repeat(HIGHLIGHT_LIMITS.maxLine * 2)}";`;
    const out = await highlight(line, 'javascript');
    expect(textOf(out!.html)).toBe(line);
  });

  it('loads every listed grammar on the JavaScript regex engine', async () => {
    for (const name of Object.keys(LANGUAGES)) {
      const out = await highlight('x = 1 # a\n', name);
      expect(out?.lang, name).toBe(name);
    }
  }, 60_000);
});

describe('languages', () => {
  it('maps fence labels and file names to grammar names', () => {
    expect(resolveLanguage('TS')).toBe('typescript');
    expect(resolveLanguage('python {title="x"}')).toBe('python');
    expect(resolveLanguage('bash')).toBe('shellscript');
    expect(resolveLanguage('toString')).toBeNull();
    expect(languageOf('src/app.tsx')).toBe('tsx');
    expect(languageOf('a/Dockerfile')).toBe('dockerfile');
    expect(languageOf('Makefile')).toBe('makefile');
    expect(languageOf('x.h')).toBe('c');
    expect(languageOf('notes.txt')).toBeNull();
    expect(languageOf('README')).toBeNull();
  });
});
