import { describe, expect, it } from 'vitest';
import { en } from './en';
import { formatBytes, resolveLocale, translate } from './i18n';
import { zh } from './zh';

describe('i18n', () => {
  it('follows the setting first, then the browser languages, then English', () => {
    expect(resolveLocale('zh', ['en-US'])).toBe('zh');
    expect(resolveLocale('system', ['zh-CN', 'en'])).toBe('zh');
    expect(resolveLocale('system', ['fr-FR', 'en-GB'])).toBe('en');
    expect(resolveLocale('system', ['fr-FR'])).toBe('en');
  });

  it('fills placeholders and keeps unknown ones visible', () => {
    expect(translate('en', 'settings.workspaceCount', { count: 3, max: 10000 })).toBe('3 of 10000 workspaces');
    expect(translate('zh', 'workspace.restoreTitle', { folder: 'src' })).toBe('访问“src”需要你再次授权');
    expect(translate('en', 'workspace.restoreTitle')).toContain('{folder}');
  });

  it('has a non-empty Chinese string for every English key, with the same placeholders', () => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(zh[key], key).toBeTruthy();
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(names(zh[key]), key).toEqual(names(en[key]));
    }
  });

  it('formats byte counts', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(1_500_000, 'en')).toBe('1.5 MB');
  });
});
