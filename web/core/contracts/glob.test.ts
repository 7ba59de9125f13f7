import { describe, expect, it } from 'vitest';
import { compileGlob, expandBraces } from './glob';

describe('glob matcher', () => {
  const m = (pattern: string, path: string) => compileGlob(pattern).matches(path);

  it('matches **, *, ?, classes and braces on whole paths', () => {
    expect(m('**/*.ts', 'a.ts')).toBe(true);
    expect(m('**/*.ts', 'src/deep/a.ts')).toBe(true);
    expect(m('src/**', 'src/a/b')).toBe(true);
    expect(m('*.ts', 'src/a.ts')).toBe(false);
    expect(m('src/*/x', 'src/a/b/x')).toBe(false);
    expect(m('a?c', 'abc')).toBe(true);
    expect(m('a?c', 'a/c')).toBe(false);
    expect(m('[a-c]x', 'bx')).toBe(true);
    expect(m('[!a-c]x', 'bx')).toBe(false);
    expect(m('[^a]x', 'zx')).toBe(true);
    expect(m('*.{js,ts}', 'a.ts')).toBe(true);
    expect(m('{src,lib}/**/{a,b{1,2}}.md', 'lib/x/b2.md')).toBe(true);
    expect(m('\\*.md', '*.md')).toBe(true);
    expect(m('\\*.md', 'a.md')).toBe(false);
    expect(m('héllo/*', 'héllo/🎉')).toBe(true);
  });

  it('lets wildcards match a leading dot by default (glob and search), and not with dot: false unless the pattern names it', () => {
    const hidden: Array<[string, string]> = [
      ['src/*', 'src/.env'],
      ['src/**', 'src/.env'],
      ['src/**', 'src/.cfg/a'],
      ['?env', '.env'],
      ['[.]env', '.env'],
      ['**/*.ts', '.hidden/a.ts'],
    ];
    for (const [pattern, path] of hidden) {
      expect([pattern, path, m(pattern, path)]).toEqual([pattern, path, true]);
      expect([pattern, path, compileGlob(pattern, { dot: false }).matches(path)]).toEqual([pattern, path, false]);
    }
    const strict = (pattern: string, path: string) => compileGlob(pattern, { dot: false }).matches(path);
    expect(strict('src/.*', 'src/.env')).toBe(true);
    expect(strict('.github/**', '.github/workflows/ci.yml')).toBe(true);
    expect(strict('src/**', 'src/a/b.ts')).toBe(true);
    expect(strict('src/**', 'src')).toBe(true);
    expect(strict('{src,.cfg}/*', '.cfg/a')).toBe(true);
    expect(strict('src/*.env', 'src/a.env')).toBe(true);
    expect(strict('src/**/.env', 'src/a/.env')).toBe(true);
  });

  it('finds the literal base folder and what the pattern names explicitly', () => {
    expect(compileGlob('src/lib/**/*.ts').base).toBe('src/lib');
    expect(compileGlob('{src,lib}/*.ts').base).toBe('');
    expect(compileGlob('node_modules/x/*').mentioned.has('node_modules')).toBe(true);
    expect(compileGlob('.github/**').mentionsHidden).toBe(true);
    expect(compileGlob('**/*.ts').mentionsHidden).toBe(false);
  });

  it('refuses broken patterns and brace explosions with E_GLOB_PATTERN', () => {
    for (const bad of [
      'x'.repeat(1001),
      '',
      '/abs/*',
      'a{b',
      '[abc',
      '[z-a]',
      'x\\',
      '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}',
    ]) {
      expect(() => compileGlob(bad), bad).toThrow(expect.objectContaining({ code: 'E_GLOB_PATTERN' }) as Error);
    }
    expect(expandBraces('{a,b}{c,d}')).toEqual(['ac', 'ad', 'bc', 'bd']);
  });

  it('matches pathological stars in linear time per segment (no backtracking blow-up)', () => {
    const pattern = `${'*a'.repeat(30)}*b`;
    const name = 'a'.repeat(5000);
    expect(m(pattern, name)).toBe(false);
    expect(m('**/**/**/**/**/**/x', `${'d/'.repeat(200)}y`)).toBe(false);
  });
});
