// Model text → safe HTML: `marked` (no eval, CSP-safe) then DOMPurify. Raw HTML in model output is sanitised, links
// open in a new tab without referrer or opener, inline styles are stripped (the CSP refuses them anyway).
import DOMPurify from 'dompurify';
import { marked, type Token } from 'marked';
import { markdownHazard } from './markdown-hazard';

let hooked = false;
function hookLinks() {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
}

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The text as one escaped paragraph that keeps its line breaks: for input marked cannot render in bounded time. */
export function plainTextHtml(text: string): string {
  return `<p class="md-plain">${text.replace(/[&<>"']/g, (ch) => escapes[ch]!)}</p>`;
}

/**
 * Safe HTML by Markdown source. A block rendered while it streamed is rendered again when the saved message
 * replaces the live one, and every time a session is reopened; sanitising is most of the cost (measured on a
 * 200 KB answer: 1.1 s of 2.4 s), so the result is kept. Bounded by characters, least recently used out first.
 */
const rendered = new Map<string, string>();
let renderedChars = 0;
const RENDERED_MAX_CHARS = 8_000_000;

/** Brackets not followed by `(`: a reference or shortcut link, whose target depends on definitions elsewhere. */
const REFERENCE_LIKE = /\][^(]|\]$/;

function cached(key: string, render: () => string, use = true): string {
  if (!use || REFERENCE_LIKE.test(key)) return render();
  const hit = rendered.get(key);
  if (hit !== undefined) {
    rendered.delete(key);
    rendered.set(key, hit);
    return hit;
  }
  const html = render();
  rendered.set(key, html);
  renderedChars += key.length + html.length;
  for (const [k, v] of rendered) {
    if (renderedChars <= RENDERED_MAX_CHARS) break;
    rendered.delete(k);
    renderedChars -= k.length + v.length;
  }
  return html;
}

export function renderMarkdown(text: string, cache = true): string {
  return cached(text, () => renderUncached(text), cache);
}

function renderUncached(text: string): string {
  hookLinks();
  if (markdownHazard(text) !== undefined) return plainTextHtml(text);
  let html: string;
  try {
    html = marked.parse(text, { async: false, gfm: true, breaks: false });
  } catch {
    // marked recurses per nesting level; a shape the hazard scan did not foresee must not take the chat down.
    return plainTextHtml(text);
  }
  return sanitize(html);
}

/**
 * Tokens of one block that marked's lexer already produced (markdown-blocks.ts, after the hazard scan) as safe HTML;
 * `raw` is their source, shown as plain text if rendering fails.
 */
export function renderMarkdownTokens(tokens: readonly Token[], raw: string, cache = true): string {
  return cached(raw, () => renderTokensUncached(tokens, raw), cache);
}

function renderTokensUncached(tokens: readonly Token[], raw: string): string {
  hookLinks();
  let html: string;
  try {
    html = marked.parser([...tokens], { gfm: true, breaks: false });
  } catch {
    return plainTextHtml(raw);
  }
  return sanitize(html);
}

const sanitize = (html: string) =>
  DOMPurify.sanitize(html, { FORBID_ATTR: ['style'], FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'] });
