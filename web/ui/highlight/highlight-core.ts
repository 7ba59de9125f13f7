// Tokenising with Shiki (core + JavaScript regex engine), where it is slow: inside the highlight Worker (or inline
// where there is no Worker, e.g. Node tests). Returns escaped HTML whose spans carry colour classes, and the colour
// pairs those classes stand for; the page turns the pairs into CSS rules (highlighter.ts).
import { CODE_BACKGROUND, readableOn } from './readable-colour';
import type { HighlighterCore, ThemedTokenWithVariants } from 'shiki/core';
import { loadGrammar } from './languages';

export const HIGHLIGHT_LIMITS = {
  /** Longer code is shown plain (the JavaScript engine tokenises TypeScript at roughly 25–100 KB per second). */
  maxChars: 100_000,
  maxLines: 4_000,
  /** Characters of one line that are tokenised; the rest of a longer line stays plain. */
  maxLine: 2_000,
  /**
   * Shiki stops tokenising a line after this many milliseconds (the rest of the line stays plain). Generous: it runs
   * in the Worker, and the first line also pays for compiling the grammar's regexes (100 ms left a busy machine's
   * first line uncoloured); a runaway is ended by the request's deadline instead.
   */
  lineTimeMs: 2_000,
} as const;

/** What the tokeniser returns: HTML of the lines and the `[class, light, dark]` colours its spans use. */
export interface Tokenised {
  html: string;
  colours: [name: string, light: string, dark: string][];
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
    return createHighlighterCore({
      themes: [light.default, dark.default],
      langs: [],
      engine: createJavaScriptRegexEngine(),
      warnings: false,
    });
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

/** `code` tokenised as the Shiki language `name`, or null when the grammar fails. Never rejects. */
export async function tokenise(code: string, name: string): Promise<Tokenised | null> {
  try {
    const hl = await highlighter();
    if (!(await ensureLanguage(hl, name))) return null;
    const lines = hl.codeToTokensWithThemes(code, {
      lang: name,
      themes: THEMES,
      tokenizeMaxLineLength: HIGHLIGHT_LIMITS.maxLine,
      tokenizeTimeLimit: HIGHLIGHT_LIMITS.lineTimeMs,
    });
    const colours = new Map<string, [string, string, string]>();
    const html = lines.map((tokens) => lineHtml(tokens, colours)).join('\n');
    return { html, colours: [...colours.values()] };
  } catch {
    return null;
  }
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => escapes[ch]!);

function lineHtml(tokens: ThemedTokenWithVariants[], colours: Map<string, [string, string, string]>): string {
  let out = '';
  for (const token of tokens) {
    const cls = tokenClass(token, colours);
    out += cls ? `<span class="${cls}">${escapeHtml(token.content)}</span>` : escapeHtml(token.content);
  }
  return out;
}

// Shiki's FontStyle bit flags.
const ITALIC = 1;
const BOLD = 2;
const HEX = /^#([0-9a-f]{3,8})$/i;

/** A theme colour as shown: at least 4.5:1 on the code background (readable-colour.ts); alpha forms kept as they are. */
const readable = (colour: string | undefined, background: string) =>
  colour && (colour.length === 3 || colour.length === 6) ? readableOn(colour, background) : colour;

function tokenClass(token: ThemedTokenWithVariants, colours: Map<string, [string, string, string]>): string {
  const light = token.variants.light;
  const dark = token.variants.dark;
  const l = readable(HEX.exec(light?.color ?? '')?.[1]?.toLowerCase(), CODE_BACKGROUND.light);
  const d = readable(HEX.exec(dark?.color ?? '')?.[1]?.toLowerCase(), CODE_BACKGROUND.dark);
  const classes: string[] = [];
  if (l && d) {
    const name = `hl-${l}-${d}`;
    if (!colours.has(name)) colours.set(name, [name, l, d]);
    classes.push(name);
  }
  const style = light?.fontStyle ?? 0;
  if (style > 0 && style & ITALIC) classes.push('hl-i');
  if (style > 0 && style & BOLD) classes.push('hl-b');
  return classes.join(' ');
}
