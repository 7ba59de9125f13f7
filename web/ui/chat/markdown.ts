// Model text → safe HTML: `marked` (no eval, CSP-safe) then DOMPurify. Raw HTML in model output is sanitised, links
// open in a new tab without referrer or opener, inline styles are stripped (the CSP refuses them anyway).
import DOMPurify from 'dompurify';
import { marked } from 'marked';

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

export function renderMarkdown(text: string): string {
  hookLinks();
  const html = marked.parse(text, { async: false, gfm: true, breaks: false });
  return DOMPurify.sanitize(html, { FORBID_ATTR: ['style'], FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'] });
}
