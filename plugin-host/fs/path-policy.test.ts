import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors';
import { MAX_NAME_BYTES, MAX_PATH_BYTES, nameProblem, nfcCollisions, normalizeWorkspacePath } from './path-policy';

function codeFor(input: unknown, allowRoot = false): string {
  try {
    normalizeWorkspacePath(input, { allowRoot });
    return 'ok';
  } catch (error) {
    if (!HarnessError.isInstance(error)) throw error;
    return error.code;
  }
}

describe('normalizeWorkspacePath', () => {
  it('keeps exact names, drops "." and resolves ".." that stays inside', () => {
    expect(normalizeWorkspacePath('src/main.ts')).toEqual({
      segments: ['src', 'main.ts'],
      path: 'src/main.ts',
      key: 'src/main.ts',
    });
    expect(normalizeWorkspacePath('./a/./b/../c.txt').path).toBe('a/c.txt');
    expect(normalizeWorkspacePath('a/../b').path).toBe('b');
    expect(normalizeWorkspacePath('dir/').path).toBe('dir');
    expect(normalizeWorkspacePath('.hidden/.git').path).toBe('.hidden/.git');
  });

  it('names the root only when allowed', () => {
    expect(normalizeWorkspacePath('', { allowRoot: true }).segments).toEqual([]);
    expect(normalizeWorkspacePath('.', { allowRoot: true }).path).toBe('');
    expect(normalizeWorkspacePath('a/..', { allowRoot: true }).path).toBe('');
    expect(codeFor('')).toBe('E_PATH_INVALID');
    expect(codeFor('a/..')).toBe('E_PATH_INVALID');
  });

  it('keeps the exact code points for opening and an NFC key for comparing', () => {
    const p = normalizeWorkspacePath('cafe\u0301/x');
    expect(p.path).toBe('cafe\u0301/x');
    expect(p.key).toBe('caf\u00e9/x');
  });

  it('gives each kind of bad path its own stable code', () => {
    const cases: Array<[unknown, string]> = [
      ['../x', 'E_PATH_ESCAPE'],
      ['a/../../x', 'E_PATH_ESCAPE'],
      ['a/b/../../../x', 'E_PATH_ESCAPE'],
      ['..', 'E_PATH_ESCAPE'],
      ['/etc/passwd', 'E_PATH_ABSOLUTE'],
      ['\\\\server\\share', 'E_PATH_ABSOLUTE'],
      ['//server/share', 'E_PATH_ABSOLUTE'],
      ['C:\\x', 'E_PATH_DRIVE'],
      ['C:x', 'E_PATH_DRIVE'],
      ['c:/x', 'E_PATH_DRIVE'],
      ['a\u0000b', 'E_PATH_NUL'],
      ['..\\x', 'E_PATH_BACKSLASH'],
      ['a\\b', 'E_PATH_BACKSLASH'],
      ['a//b', 'E_PATH_INVALID'],
      ['a/\ud800', 'E_PATH_INVALID'],
      [42, 'E_PATH_INVALID'],
      ['x'.repeat(MAX_NAME_BYTES + 1), 'E_PATH_TOO_LONG'],
      [Array.from({ length: MAX_PATH_BYTES / 4 + 1 }, () => 'abc').join('/'), 'E_PATH_TOO_LONG'],
    ];
    for (const [input, code] of cases) expect(codeFor(input), JSON.stringify(input)).toBe(code);
    expect(codeFor('x'.repeat(MAX_NAME_BYTES))).toBe('ok');
    expect(codeFor('é'.repeat(MAX_NAME_BYTES / 2 + 1))).toBe('E_PATH_TOO_LONG');
  });

  it('refuses names that Windows or Chrome refuse for a real folder', () => {
    for (const name of [
      'con',
      'CON.txt',
      'nul',
      'com1.log',
      'LPT9',
      'aux .md',
      'a:b',
      'a<b',
      'a|b',
      'q?',
      'star*',
      'tab\tname',
      'end.',
      'end ',
      'x.lnk',
      'y.URL',
      'z.{20D04FE0-3AEA-1069-A2D8-08002B30309D}',
    ]) {
      expect(nameProblem(name), name).not.toBeNull();
      expect(codeFor(`dir/${name}`), name).toBe('E_PATH_INVALID');
    }
    for (const name of [
      'console.log',
      'a.b.c',
      '.env',
      'file~',
      'comma,and;semicolon',
      'naïve',
      '日本語.txt',
      'com10',
      'spaces inside',
    ]) {
      expect(nameProblem(name), name).toBeNull();
    }
  });

  it('finds names that collide only after NFC normalisation', () => {
    expect([...nfcCollisions(['caf\u00e9', 'cafe\u0301', 'cafe'])].sort()).toEqual(['caf\u00e9', 'cafe\u0301'].sort());
    expect(nfcCollisions(['a', 'b']).size).toBe(0);
  });

  it('puts an actionable sentence and the path in every refusal', () => {
    try {
      normalizeWorkspacePath('../secret');
      expect.unreachable();
    } catch (error) {
      expect(HarnessError.isInstance(error)).toBe(true);
      const e = error as HarnessError;
      expect(e.message).toContain('"../secret"');
      expect(e.message).toMatch(/Use a path/);
      expect(e.data).toEqual({ path: '../secret' });
    }
  });
});
