// Syntax highlighting for code in messages and file previews: Shiki on its JavaScript regex engine (no WebAssembly,
// no eval: grammars compile to plain RegExp objects), created on first use, languages loaded one chunk each.
//
// Tokenising runs in a Worker (highlight-worker.ts): the JavaScript engine takes seconds for 100 KB of TypeScript,
// which must not freeze the chat. A request that outlives its deadline (a grammar backtracking on odd input: model
// output and workspace files are untrusted) ends that Worker; the code stays plain and the next request starts a
// new one. Without Worker (Node tests) the same code runs inline.
//
// The production CSP has no 'unsafe-inline' for styles, so Shiki's HTML (inline `style="color:…"`) cannot be used.
// Tokens are spans with one class per (light, dark) colour pair instead, and each class's rule is added once to a
// constructed stylesheet (CSSOM, which the CSP does not govern): `color: light-dark(light, dark)`, so the colours
// follow the app's theme (html[data-theme] / prefers-color-scheme) without highlighting again.
import { HIGHLIGHT_LIMITS, type Tokenised } from './highlight-core';
import type { HighlightReply, HighlightRequest } from './highlight-worker';
import { resolveLanguage } from './languages';

export { HIGHLIGHT_LIMITS } from './highlight-core';
export { languageOf, resolveLanguage } from './languages';

/** Highlighted code: `html` is escaped text in `<span class="hl-…">` tokens, lines joined by "\n", for a `<code>`. */
export interface HighlightedHtml {
  readonly html: string;
  /** The language used (a Shiki name). */
  readonly lang: string;
}

/** A request's deadline: generous for the first (the Worker loads Shiki and the grammar), then by size. */
const deadlineMs = (code: string) => 10_000 + code.length / 10;

/**
 * `code` highlighted as `lang` (a fence label, alias or Shiki name), or null for an unknown language, code past
 * HIGHLIGHT_LIMITS, a grammar that fails or a deadline missed. Never rejects.
 */
export async function highlight(code: string, lang: string | null | undefined): Promise<HighlightedHtml | null> {
  const name = resolveLanguage(lang);
  if (!name || code.length > HIGHLIGHT_LIMITS.maxChars || countLines(code) > HIGHLIGHT_LIMITS.maxLines) return null;
  const key = cacheKey(name, code);
  const cached = cache.get(key);
  if (cached) return cached;
  const tokenised =
    typeof Worker === 'undefined'
      ? await (await import('./highlight-core')).tokenise(code, name)
      : await inWorker(code, name);
  if (!tokenised) return null;
  for (const [cls, light, dark] of tokenised.colours) defineColour(cls, light, dark);
  const result: HighlightedHtml = { html: tokenised.html, lang: name };
  remember(key, result);
  return result;
}

/**
 * The highlighting of `code` if it was done before (a finished answer is re-rendered once when its turn is saved):
 * lets a view show colours at once instead of plain text for a frame.
 */
export function highlightedBefore(code: string, lang: string | null | undefined): HighlightedHtml | null {
  const name = resolveLanguage(lang);
  return name ? (cache.get(cacheKey(name, code)) ?? null) : null;
}

let worker: Worker | undefined;
let nextId = 1;
const waiting = new Map<number, (result: Tokenised | null) => void>();

function startWorker(): Worker {
  const w = new Worker(new URL('./highlight-worker.ts', import.meta.url), { type: 'module', name: 'highlight' });
  w.onmessage = (event: MessageEvent<HighlightReply>) => {
    const done = waiting.get(event.data.id);
    waiting.delete(event.data.id);
    done?.(event.data.result);
  };
  // A Worker that fails to start or crashes answers every request it holds with "plain".
  w.onerror = () => stopWorker(w);
  return w;
}

function stopWorker(w: Worker) {
  w.terminate();
  if (worker === w) worker = undefined;
  for (const done of waiting.values()) done(null);
  waiting.clear();
}

function inWorker(code: string, lang: string): Promise<Tokenised | null> {
  worker ??= startWorker();
  const w = worker;
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => stopWorker(w), deadlineMs(code));
    waiting.set(id, (result) => {
      clearTimeout(timer);
      resolve(result);
    });
    w.postMessage({ id, code, lang } satisfies HighlightRequest);
  });
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

const CLASS = /^hl-[0-9a-f]{3,8}-[0-9a-f]{3,8}$/;
const HEX = /^[0-9a-f]{3,8}$/;
const defined = new Set<string>();
let sheet: CSSStyleSheet | undefined;

/** Adds `.name { color: light-dark(#l, #d) }` to the page's highlight sheet once (nothing outside a document). */
function defineColour(name: string, light: string, dark: string) {
  // The Worker is ours, but a rule is CSS text: only the shapes the tokeniser makes get in.
  if (defined.has(name) || !CLASS.test(name) || !HEX.test(light) || !HEX.test(dark)) return;
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
