// Recognising and summarising an HTML error page (a proxy's 502, a login wall) in an HTTP error answer. The body
// comes from whatever answers at base_url, so it is untrusted: these are index scans, linear in its length. The
// regexes they replace backtracked: `^\s*(?:<!--[\s\S]*?-->\s*)*<html` took exponential time on repeated comments
// (22 comments 150 ms, each one more doubling it), and `<[^>]*>` quadratic time on a run of "<" (7 s for 64 KiB).

/** JavaScript's `\s` (a byte order mark included), one character at a time. */
const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);

function skipSpace(text: string, i: number): number {
  while (i < text.length && isSpace(text[i])) i++;
  return i;
}

/** True when `text` starts, after whitespace and comments, with `<!doctype html`, `<html`, `<head` or `<body`. */
export function isHtmlPage(text: string): boolean {
  let i = skipSpace(text, 0);
  while (text.startsWith('<!--', i)) {
    const end = text.indexOf('-->', i + 4);
    if (end < 0) return false;
    i = skipSpace(text, end + 3);
  }
  const head = text.slice(i, i + 32).toLowerCase();
  if (head.startsWith('<!doctype')) {
    const j = skipSpace(head, 9);
    return j > 9 && head.startsWith('html', j);
  }
  for (const tag of ['<html', '<head', '<body']) {
    if (head.startsWith(tag)) {
      const next = head[tag.length];
      return next === '>' || isSpace(next);
    }
  }
  return false;
}

/** The content of the first `<title…>…</title>`, or undefined. */
function titleOf(html: string, lower: string): string | undefined {
  const open = lower.indexOf('<title');
  if (open < 0) return undefined;
  const gt = lower.indexOf('>', open + 6);
  if (gt < 0) return undefined;
  const close = lower.indexOf('</title>', gt + 1);
  return close < 0 ? undefined : html.slice(gt + 1, close);
}

/** `html` with each `<script…>…</script>` and `<style…>…</style>` block, then each `<…>` tag, replaced by a space. */
function withoutMarkup(html: string): string {
  const lower = html.toLowerCase();
  // A block without its closing tag is left as it is; knowing where the last closing tag is keeps this linear.
  const lastClose = { script: lower.lastIndexOf('</script>'), style: lower.lastIndexOf('</style>') };
  let out = '';
  let from = 0;
  let i = lower.indexOf('<');
  while (i >= 0) {
    const name = lower.startsWith('<script', i) ? 'script' : lower.startsWith('<style', i) ? 'style' : undefined;
    if (name) {
      const gt = lower.indexOf('>', i + name.length + 1);
      if (gt >= 0 && gt < lastClose[name]) {
        const close = lower.indexOf(`</${name}>`, gt + 1);
        out += `${html.slice(from, i)} `;
        from = close + name.length + 3;
        i = lower.indexOf('<', from);
        continue;
      }
    }
    i = lower.indexOf('<', i + 1);
  }
  const rest = out + html.slice(from);
  // Tags: a "<" with no ">" after it is left as it is, and so is every "<" after it.
  let text = '';
  let at = 0;
  for (;;) {
    const lt = rest.indexOf('<', at);
    const gt = lt < 0 ? -1 : rest.indexOf('>', lt + 1);
    if (gt < 0) return text + rest.slice(at);
    text += `${rest.slice(at, lt)} `;
    at = gt + 1;
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
// Linear: fixed alternatives, and a whitespace run collapsed once.
const plain = (s: string) =>
  s
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e]!)
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The words of an HTML error page: its title, else its text without tags, on one line. Printing the markup itself
 * helps nobody.
 */
export function htmlPageText(html: string): string {
  const title = titleOf(html, html.toLowerCase());
  if (title && plain(title)) return `an HTML page titled "${plain(title).slice(0, 200)}"`;
  const body = plain(withoutMarkup(html));
  return body ? `an HTML page saying "${body.slice(0, 300)}"` : 'an empty HTML page';
}
