// A small typed i18n: two dictionaries with the same keys (the compiler checks zh against en), a language chosen
// from settings or the browser, and t() filling `{name}` placeholders.
import { en, type Dictionary, type MessageKey } from './en';
import { zh } from './zh';
import type { Language } from '../../core/page';

export type Locale = 'en' | 'zh';
export type { MessageKey };

const dictionaries: Record<Locale, Dictionary> = { en, zh };

export function resolveLocale(
  setting: Language,
  browserLanguages: readonly string[] = globalThis.navigator?.languages ?? [],
): Locale {
  if (setting !== 'system') return setting;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

export function translate(locale: Locale, key: MessageKey, params?: Record<string, string | number>): string {
  const template = dictionaries[locale][key] ?? en[key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
export function formatBytes(bytes: number, locale: Locale): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toLocaleString(locale === 'zh' ? 'zh-CN' : 'en-US', { maximumFractionDigits: digits })} ${UNITS[unit]}`;
}
