// Syntax highlighting for code in messages and file previews: Shiki on its JavaScript regex engine (no WebAssembly,
// no eval: grammars compile to plain RegExp objects), created on first use, languages loaded one chunk each.
//
// The production CSP has no 'unsafe-inline' for styles, so Shiki's HTML (inline `style="color:…"`) cannot be used.
// Tokens are rendered as spans with one class per (light, dark) colour pair instead, and each class's rule is added
// once to a constructed stylesheet (CSSOM, which the CSP does not govern): `color: light-dark(light, dark)`, so the
// colours follow the app's theme (html[data-theme] / prefers-color-scheme) without re-highlighting.
//
// Model output and workspace files are untrusted: code past the bounds below is left plain (null), a line longer
// than MAX_LINE stays untokenised, and Shiki's per-line time limit stops a grammar that backtracks on odd input.
import type { HighlighterCore, ThemedTokenWithVariants } from 'shiki/core';
import { loadGrammar, resolveLanguage } from './languages';

export { languageOf, resolveLanguage } from './languages';

export const HIGHLIGHT_LIMITS = {
  /** Longer code is shown plain: tokenising runs on the main thread (~1 ms per 1–2 KB of TypeScript). */
  maxChars: 100_000,
  maxLines: 4_000,
  /** Characters of one line that are tokenised; the rest of a longer line stays plain. */
  maxLine: 2_000,
  /** Shiki stops tokenising a line after this many milliseconds. */
  lineTimeMs: 100,
} as const;

/** Highlighted code: `html` is escaped text in `<span class="hl-…">` tokens, lines joined by "\n", for a `<code>`. */
export interface HighlightedHtml {
  readonly html: string;
  /** The language used (a Shiki name). */
  readonly lang: string;
}

const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

let core: Promise<HighlighterCore> | undefined;
const grammars = new Map<string, Promise<boolean>>();

function highlighter(): Promise<HighlighterCore> {
  core ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, light, dark] = await Promise.all([
      import('shiki/core'),
      import('shiki/engine/javascript'),
      import('shiki/themes/github-light.mjs'),
      import('shiki/themes/github-dark.mjs'),
    ]);
    return createHighlighterCore({ themes: [light.default, dark.default], langs: [], engine: createJavaScriptRegexEngine(), warnings: false });
  })();
  return core;
}

/** Loads a language once; false when its grammar cannot be loaded or compiled (the code then stays plain). */
function ensureLanguage(hl: HighlighterCore, name: string): Promise<boolean> {
  let loaded = grammars.get(name);
  if (!loaded) {
    loaded = loadGrammar(name).then(
      (grammar) => hl.loadLanguage(grammar).then(() => true),
      () => false,
    );
    grammars.set(name, loaded);
  }
  return loaded;
}

/**
 * `code` highlighted as `lang` (a fence label, alias or Shiki name), or null for an unknown language, code past
 * HIGHLIGHT_LIMITS or a grammar that fails. Never rejects.
 */
export async function highlight(code: string, lang: string | null | undefined): Promise<HighlightedHtml | null> {
  const name = resolveLanguage(lang);
  if (!name || code.length > HIGHLIGHT_LIMITS.maxChars || countLines(code) > HIGHLIGHT_LIMITS.maxLines) return null;
  const key = cacheKey(name, code);
  const cached = cache.get(key);
  if (cached) return cached;
  try {
    const hl = await highlighter();
    if (!(await ensureLanguage(hl, name))) return null;
    const lines = hl.codeToTokensWithThemes(code, { lang: name, themes: THEMES, tokenizeMaxLineLength: HIGHLIGHT_LIMITS.maxLine, tokenizeTimeLimit: HIGHLIGHT_LIMITS.lineTimeMs });
    const result: HighlightedHtml = { html: lines.map(lineHtml).join('\n'), lang: name };
    remember(key, result);
    return result;
  } catch {
    return null;
  }
}

/**
 * The highlighting of `code` if it was done before (a finished answer is re-rendered once when its turn is saved):
 * lets a view show colours at once instead of plain text for a frame.
 */
export function highlightedBefore(code: string, lang: string | null | undefined): HighlightedHtml | null {
  const name = resolveLanguage(lang);
  return name ? (cache.get(cacheKey(name, code)) ?? null) : null;
}

// A small LRU of recent results: short blocks only, so it stays a few megabytes at most.
const CACHE_ENTRIES = 64;
const CACHE_MAX_CHARS = 20_000;
const cache = new Map<string, HighlightedHtml>();
const cacheKey = (lang: string, code: string) => `${lang}\0${code}`;
function remember(key: string, value: HighlightedHtml) {
  if (key.length > CACHE_MAX_CHARS) return;
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
}

function countLines(code: string): number {
  let n = 1;
  for (let i = code.indexOf('\n'); i >= 0; i = code.indexOf('\n', i + 1)) n++;
  return n;
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => escapes[ch]!);

function lineHtml(tokens: ThemedTokenWithVariants[]): string {
  let out = '';
  for (const token of tokens) {
    const cls = tokenClass(token);
    out += cls ? `<span class="${cls}">${escapeHtml(token.content)}</span>` : escapeHtml(token.content);
  }
  return out;
}

// Shiki's FontStyle bit flags.
const ITALIC = 1;
const BOLD = 2;
const HEX = /^#([0-9a-f]{3,8})$/i;

function tokenClass(token: ThemedTokenWithVariants): string {
  const light = token.variants.light;
  const dark = token.variants.dark;
  const l = HEX.exec(light?.color ?? '')?.[1]?.toLowerCase();
  const d = HEX.exec(dark?.color ?? '')?.[1]?.toLowerCase();
  const classes: string[] = [];
  if (l && d) {
    const name = `hl-${l}-${d}`;
    defineColour(name, l, d);
    classes.push(name);
  }
  const style = light?.fontStyle ?? 0;
  if (style > 0 && style & ITALIC) classes.push('hl-i');
  if (style > 0 && style & BOLD) classes.push('hl-b');
  return classes.join(' ');
}

const defined = new Set<string>();
let sheet: CSSStyleSheet | undefined;

/** Adds `.name { color: light-dark(#l, #d) }` to the page's highlight sheet once (nothing outside a document). */
function defineColour(name: string, light: string, dark: string) {
  if (defined.has(name)) return;
  defined.add(name);
  if (typeof document === 'undefined' || typeof CSSStyleSheet === 'undefined') return;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.insertRule('.hl-i { font-style: italic }');
    sheet.insertRule('.hl-b { font-weight: 600 }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }
  sheet.insertRule(`.${name} { color: light-dark(#${light}, #${dark}) }`, sheet.cssRules.length);
}
