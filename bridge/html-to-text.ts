// HTML → readable text for web_fetch (seed 000 §9: no DOM, no script runs). This is the ONE implementation: the
// bridge uses it, and headless `i` reaches it through web/core/modules/web/node-web-fetch.ts (see there why).
// Pages are untrusted and the model picks the URL (a prompt injection can), so the conversion is a single forward
// scan driven by indexOf: every search either consumes what it scanned or ends the scan, and the one search that
// may fail without ending it (an unclosed <title>) remembers its answer. Work is linear in the input whatever its
// shape; the regex version this replaces took ~20 s on 200 KB of `<!--` (each lazy match rescanned to the end).
// Unclosed constructs end as a browser ends them: a comment, a quoted attribute, a tag, <script> or <style> left
// open runs to the end of the page and is dropped. Hidden elements (<head>, <svg>, <noscript>, …) that never
// close are shown after all, as the old converter did, so a page missing its </head> keeps its body.

/** Content dropped with its element; the page's own text never shows what is inside. */
const HIDDEN = new Set(['head', 'noscript', 'template', 'svg', 'iframe', 'object']);
/** Raw text elements: their content is not markup, it runs to the matching end tag. */
const RAW = new Set(['script', 'style']);
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'header', 'footer', 'nav', 'aside', 'main', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'ul', 'ol', 'table', 'tr', 'pre', 'blockquote', 'br', 'hr', 'dl', 'dt', 'dd', 'figure', 'figcaption', 'form',
]);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©', reg: '®', laquo: '«', raquo: '»', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“' };

const isAlpha = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
/** HTML's tag whitespace: tab, LF, FF, CR, space. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** One entity body (between `&` and `;`): `#x41`, `#65` or `amp`, as the old converter accepted them. */
function entity(body: string): string | undefined {
  if (body.charCodeAt(0) === 35) {
    const hex = body.charCodeAt(1) === 120 || body.charCodeAt(1) === 88;
    const digits = body.slice(hex ? 2 : 1);
    if (digits.length === 0 || digits.length > (hex ? 6 : 7)) return undefined;
    for (let k = 0; k < digits.length; k++) if (!(hex ? isHex : isDigit)(digits.charCodeAt(k))) return undefined;
    const code = parseInt(digits, hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
  }
  if (body.length < 2) return undefined;
  for (let k = 0; k < body.length; k++) if (!isAlpha(body.charCodeAt(k))) return undefined;
  return NAMED[body.toLowerCase()];
}

/** Decodes `&name;`, `&#nn;` and `&#xhh;`; anything else stays as written. Looks at most 10 characters per `&`. */
export function decodeEntities(text: string): string {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  const out: string[] = [];
  let last = 0;
  while (amp >= 0) {
    let j = amp + 1;
    const stop = Math.min(text.length, amp + 10);
    while (j < stop && text.charCodeAt(j) !== 59 && text.charCodeAt(j) !== 38) j++;
    const decoded = text.charCodeAt(j) === 59 ? entity(text.slice(amp + 1, j)) : undefined;
    if (decoded !== undefined) {
      out.push(text.slice(last, amp), decoded);
      last = j + 1;
    }
    amp = text.indexOf('&', decoded !== undefined ? j + 1 : amp + 1);
  }
  out.push(text.slice(last));
  return out.join('');
}

interface Tag {
  /** Lower-case name; '' for markup that is not an element (the scan just skips it). */
  name: string;
  closing: boolean;
  selfClosing: boolean;
  href: string | undefined;
  /** Index just past the tag's `>`, or the input's length when the tag never ends. */
  end: number;
}

/** Reads the tag starting at `at` (html[at] === '<', html[at+1] a letter or '/' + letter). */
function readTag(html: string, at: number): Tag {
  const n = html.length;
  const closing = html.charCodeAt(at + 1) === 47;
  let j = at + (closing ? 2 : 1);
  const nameStart = j;
  while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== 47 && html.charCodeAt(j) !== 62) j++;
  // A name longer than any element is no element we treat specially: don't copy or lower-case it.
  const name = j - nameStart <= 16 ? html.slice(nameStart, j).toLowerCase() : '';
  const tag: Tag = { name, closing, selfClosing: false, href: undefined, end: n };
  while (j < n) {
    let c = html.charCodeAt(j);
    if (isSpace(c) || c === 47) {
      tag.selfClosing = c === 47;
      j++;
      continue;
    }
    if (c === 62) {
      tag.end = j + 1;
      return tag;
    }
    tag.selfClosing = false;
    const attrStart = j;
    j++; // an attribute name may start with '=' (HTML tokenizer), so the first character is always taken
    while (j < n && !isSpace((c = html.charCodeAt(j))) && c !== 47 && c !== 62 && c !== 61) j++;
    const attrName = j - attrStart === 4 ? html.slice(attrStart, j).toLowerCase() : '';
    while (j < n && isSpace(html.charCodeAt(j))) j++;
    if (html.charCodeAt(j) !== 61) continue;
    j++;
    while (j < n && isSpace(html.charCodeAt(j))) j++;
    c = html.charCodeAt(j);
    let value: string;
    if (c === 34 || c === 39) {
      const close = html.indexOf(c === 34 ? '"' : "'", j + 1);
      if (close < 0) return tag; // a quote left open swallows the rest of the page, as in a browser
      value = html.slice(j + 1, close);
      j = close + 1;
    } else {
      const valueStart = j;
      while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== 62) j++;
      value = html.slice(valueStart, j);
    }
    if (attrName === 'href') tag.href = value;
  }
  return tag;
}

/**
 * Where `</name` (any case, then space, `/` or `>`) next starts at or after `from`, or -1. Each call consumes
 * what it scans (callers continue after the answer or stop); `cache` keeps answers for a search that may fail
 * without ending the scan, valid because the scan only moves forward.
 */
function findEndTag(html: string, name: string, from: number, cache: Map<string, number>): number {
  const known = cache.get(name);
  if (known !== undefined && (known === -1 || known >= from)) return known;
  let i = from;
  for (;;) {
    i = html.indexOf('</', i);
    if (i < 0) break;
    const after = i + 2 + name.length;
    if (html.slice(i + 2, after).toLowerCase() === name) {
      const c = html.charCodeAt(after);
      if (Number.isNaN(c) || isSpace(c) || c === 47 || c === 62) break;
    }
    i += 2;
  }
  cache.set(name, i);
  return i;
}

/** Folds runs of spaces to one, drops spaces around line breaks, keeps at most one empty line, trims. */
function squeeze(text: string): string {
  const out: string[] = [];
  let newlines = 0;
  let space = false;
  let runStart = -1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    const nl = c === 10;
    const blank = nl || c === 32 || c === 9 || c === 12 || c === 11 || c === 13 || c === 0xa0;
    if (!blank) {
      if (runStart < 0) {
        if (out.length) out.push(newlines >= 2 ? '\n\n' : newlines === 1 ? '\n' : space ? ' ' : '');
        newlines = 0;
        space = false;
        runStart = i;
      }
      continue;
    }
    if (runStart >= 0) {
      out.push(text.slice(runStart, i));
      runStart = -1;
    }
    if (nl) newlines++;
    else space = true;
  }
  return out.join('');
}

export function htmlToText(html: string): string {
  const n = html.length;
  const cache = new Map<string, number>();
  const shown: string[] = [];
  // Text inside a hidden element waits here: dropped when the element closes, shown if it never does.
  let held: string[] = [];
  let hidden: string | undefined;
  let depth = 0;
  let title: string | undefined;
  let href: string | undefined;
  const sink = () => (hidden ? held : shown);
  const text = (from: number, to: number) => {
    if (to > from) sink().push(decodeEntities(html.slice(from, to)));
  };
  const endLink = () => {
    if (href !== undefined) sink().push(` (${decodeEntities(href)})`);
    href = undefined;
  };

  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) {
      text(i, n);
      break;
    }
    text(i, lt);
    const c = html.charCodeAt(lt + 1);
    if (c === 33 && html.startsWith('<!--', lt)) {
      // `<!-->` and `<!--->` are empty comments; an unclosed comment runs to the end.
      const close = html.startsWith('>', lt + 4) ? lt + 1 : html.startsWith('->', lt + 4) ? lt + 3 : html.indexOf('-->', lt + 4);
      i = close < 0 ? n : close + 3;
      continue;
    }
    const closingTag = c === 47 && isAlpha(html.charCodeAt(lt + 2));
    if (c === 33 || c === 63 || (c === 47 && !closingTag)) {
      // <!DOCTYPE …>, <?xml …?>, <![CDATA[…]]>, `</ x>`: bogus comments, to the next '>'.
      const close = html.indexOf('>', lt + 2);
      i = close < 0 ? n : close + 1;
      continue;
    }
    if (!closingTag && !isAlpha(c)) {
      sink().push('<'); // a '<' that starts no tag is text ("a < b")
      i = lt + 1;
      continue;
    }
    const tag = readTag(html, lt);
    i = tag.end;
    const { name } = tag;
    if (tag.closing) {
      if (hidden && name === hidden && --depth === 0) {
        held = [];
        hidden = undefined;
        shown.push(' ');
      } else if (name === 'a') endLink();
      else if (BLOCK.has(name)) sink().push('\n');
      continue;
    }
    if (RAW.has(name) || name === 'title') {
      const close = findEndTag(html, name, i, cache);
      if (name === 'title') {
        if (close < 0) continue; // an unclosed <title> is ignored and the text after it kept, as before
        title ??= squeeze(decodeEntities(html.slice(i, close))).replaceAll('\n', ' ').replaceAll('  ', ' ');
      } else sink().push(' ');
      i = close < 0 ? n : readTag(html, close).end;
      continue;
    }
    if (hidden && name === hidden && !tag.selfClosing) depth++;
    else if (hidden === 'head' && name === 'body') {
      // <body> ends a <head> whose end tag was left out (it is optional in HTML).
      held = [];
      hidden = undefined;
      depth = 0;
    }
    if (!hidden && HIDDEN.has(name) && !tag.selfClosing) {
      endLink();
      hidden = name;
      depth = 1;
    } else if (name === 'a') {
      endLink(); // an <a> inside an open <a> closes the first one, as in a browser
      if (tag.href && tag.href.charCodeAt(0) !== 35) href = tag.href;
    } else if (name === 'li') sink().push('\n- ');
    else if (BLOCK.has(name)) sink().push('\n');
  }
  const body = squeeze(shown.join('') + (hidden ? held.join('') : ''));
  return title && !body.startsWith(title) ? `${title}\n\n${body}` : body;
}
