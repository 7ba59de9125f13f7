// HTML → readable text for web_fetch, without a DOM and without running anything (seed 000 §9: no JS): drop
// non-content elements, turn block boundaries into newlines, keep link targets, decode entities, squeeze spaces.
// The input is at most 1 MB and every pattern is linear (no nested quantifiers). Browser-safe and pure.
const DROP = /<(script|style|noscript|template|svg|head|iframe|object|canvas)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const BLOCK = /<\/?(p|div|section|article|header|footer|nav|aside|main|h[1-6]|ul|ol|table|tr|pre|blockquote|br|hr|dl|dt|dd|figure|figcaption|form)\b[^>]*>/gi;
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©', reg: '®',
  laquo: '«', raquo: '»', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', middot: '·', bull: '•',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,8});/gi, (whole, ent: string) => {
    if (ent.startsWith('#')) {
      const code = ent[1] === 'x' || ent[1] === 'X' ? parseInt(ent.slice(2), 16) : parseInt(ent.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ent.toLowerCase()] ?? whole;
  });
}

export function htmlToText(html: string): string {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)?.[1];
  let text = html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(DROP, ' ')
    .replace(/<a\b[^>]*?\bhref\s*=\s*["']([^"'#][^"']*)["'][^>]*>([\s\S]*?)<\/a\s*>/gi, (_m, href: string, inner: string) => `${inner} (${href})`)
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(BLOCK, '\n')
    .replace(/<[^>]*>/g, '');
  text = decodeEntities(text)
    .replace(/[ \t\f\v\r\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  const heading = title ? decodeEntities(title).replace(/\s+/g, ' ').trim() : '';
  return heading && !text.startsWith(heading) ? `${heading}\n\n${text}` : text;
}
