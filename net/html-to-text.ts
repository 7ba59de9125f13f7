// HTML → readable text for web_fetch (seed 000 §9: no DOM, no script runs). This is the ONE implementation, in
// net/: net/web-fetch.ts uses it for the bridge's web_fetch and for headless `i`'s (see net/CONTEXT.md).
// Pages are untrusted and the model picks the URL (a prompt injection can), so the conversion is a single forward
// scan driven by indexOf: every search either consumes what it scanned or ends the scan, and the one search that
// may fail without ending it (an unclosed <title>) remembers its answer. Work is linear in the input whatever its
// shape; the regex version this replaces took ~20 s on 200 KB of `<!--` (each lazy match rescanned to the end).
// Unclosed constructs end as a browser ends them: a comment, a quoted attribute, a tag, <script> or <style> left
// open runs to the end of the page and is dropped. Hidden elements (<head>, <svg>, <noscript>, …) that never
// close are shown after all, as the old converter did, so a page missing its </head> keeps its body.
// Linear is not enough for a server: the bridge converts with htmlToTextYielding, which lets the event loop run
// every SLICE characters, so a 1 MB page never holds up other requests or the workers' timers.

import { decodeEntities, isAlpha } from './html-entities';

export { decodeEntities };

/** HTML's tag whitespace: tab, LF, FF, CR, space. */
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 12 || c === 13;

/** Content dropped with its element; the page's own text never shows what is inside. */
const HIDDEN = ['head', 'noscript', 'template', 'svg', 'iframe', 'object'];
/** Raw text elements: their content is not markup, it runs to the matching end tag. */
const RAW = ['script', 'style'];
const BLOCK = [
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'nav',
  'aside',
  'main',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'table',
  'tr',
  'pre',
  'blockquote',
  'br',
  'hr',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'form',
];
const K_BLOCK = 1;
const K_RAW = 2;
const K_TITLE = 3;
const K_HIDDEN = 4;
const K_A = 5;
const K_LI = 6;
const K_BODY = 7;
/** What each element the scan acts on is, in one lookup per tag; any other element is skipped. */
const KIND = new Map<string, number>([
  ...BLOCK.map((n) => [n, K_BLOCK] as const),
  ...RAW.map((n) => [n, K_RAW] as const),
  ...HIDDEN.map((n) => [n, K_HIDDEN] as const),
  ['title', K_TITLE],
  ['a', K_A],
  ['li', K_LI],
  ['body', K_BODY],
]);

/** Lower case for a short ASCII name; most pages write names in lower case, which then costs no new string. */
function lower(name: string): string {
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    if (c >= 65 && c <= 90) return name.toLowerCase();
  }
  return name;
}

// What readTag read, in module-level fields rather than a fresh object per tag: a page of 200,000 tags should not
// also be 200,000 allocations. Read right after each call, before the scan can pause (htmlToTextYielding).
/** Lower-case name; '' for a name too long to be an element treated specially. */
let tagName = '';
let tagClosing = false;
let tagSelfClosing = false;
let tagHref: string | undefined;

/** Reads the tag starting at `at` (html[at] === '<', then a letter or '/' and a letter); returns the index after it. */
function readTag(html: string, at: number): number {
  const n = html.length;
  tagClosing = html.charCodeAt(at + 1) === 47;
  tagSelfClosing = false;
  tagHref = undefined;
  let j = at + (tagClosing ? 2 : 1);
  const nameStart = j;
  while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== 47 && html.charCodeAt(j) !== 62) j++;
  // A name longer than any element is no element we treat specially: don't copy or lower-case it.
  tagName = j - nameStart <= 16 ? lower(html.slice(nameStart, j)) : '';
  while (j < n) {
    let c = html.charCodeAt(j);
    if (isSpace(c) || c === 47) {
      tagSelfClosing = c === 47;
      j++;
      continue;
    }
    if (c === 62) return j + 1;
    tagSelfClosing = false;
    const attrStart = j;
    j++; // an attribute name may start with '=' (HTML tokenizer), so the first character is always taken
    while (j < n && !isSpace((c = html.charCodeAt(j))) && c !== 47 && c !== 62 && c !== 61) j++;
    const isHref = j - attrStart === 4 && lower(html.slice(attrStart, j)) === 'href';
    while (j < n && isSpace(html.charCodeAt(j))) j++;
    if (html.charCodeAt(j) !== 61) continue;
    j++;
    while (j < n && isSpace(html.charCodeAt(j))) j++;
    c = html.charCodeAt(j);
    let valueStart = j;
    if (c === 34 || c === 39) {
      const close = html.indexOf(c === 34 ? '"' : "'", j + 1);
      if (close < 0) return n; // a quote left open swallows the rest of the page, as in a browser
      valueStart = j + 1;
      j = close + 1;
      if (isHref) tagHref = html.slice(valueStart, close);
    } else {
      while (j < n && !isSpace(html.charCodeAt(j)) && html.charCodeAt(j) !== 62) j++;
      if (isHref) tagHref = html.slice(valueStart, j);
    }
  }
  return n;
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

/**
 * Input characters handled between two chances for the event loop to run (htmlToTextYielding): small enough that
 * a request to the bridge waits well under a millisecond per slice, large enough that yielding costs nothing.
 */
const SLICE = 512;

const isBlank = (c: number) => c === 32 || c === 10 || c === 9 || c === 12 || c === 11 || c === 13 || c === 0xa0;

/**
 * Folds runs of spaces to one, drops spaces around line breaks, keeps at most one empty line, trims. Fed piece by
 * piece as the scan produces them, so the page's text is never joined and walked a second time.
 */
class Squeezer {
  /** Joined every few KB: small pieces then die young instead of filling the old generation until the end. */
  private readonly done: string[] = [];
  private out: string[] = [];
  private size = 0;
  private newlines = 0;
  private space = false;

  private push(text: string): void {
    this.out.push(text);
    this.size += text.length;
    if (this.size >= 8192) {
      this.done.push(this.out.join(''));
      this.out = [];
      this.size = 0;
    }
  }

  add(piece: string): void {
    const n = piece.length;
    let runStart = -1;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? piece.charCodeAt(i) : -1;
      if (c >= 0 && !isBlank(c)) {
        if (runStart < 0) {
          if ((this.size || this.done.length) && (this.newlines || this.space))
            this.push(this.newlines >= 2 ? '\n\n' : this.newlines === 1 ? '\n' : ' ');
          this.newlines = 0;
          this.space = false;
          runStart = i;
        }
        continue;
      }
      // A single space between words stays inside the run: prose is copied in long slices, not word by word.
      if (c === 32 && runStart >= 0 && i + 1 < n && !isBlank(piece.charCodeAt(i + 1))) continue;
      if (runStart >= 0) {
        this.push(runStart === 0 && i === n ? piece : piece.slice(runStart, i));
        runStart = -1;
      }
      if (c === 10) this.newlines++;
      else if (c >= 0) this.space = true;
    }
  }

  /** The same as add('\n'), without walking a string. */
  lineBreak(): void {
    this.newlines++;
  }

  text(): string {
    this.done.push(this.out.join(''));
    this.out = [];
    this.size = 0;
    return this.done.join('');
  }
}

const squeeze = (text: string) => {
  const s = new Squeezer();
  s.add(text);
  return s.text();
};

/** Runs a conversion to the end without pausing. */
function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** The text of an HTML page, in one go (tests, small pages). */
export function htmlToText(html: string): string {
  return finish(convert(html));
}

/**
 * The same text, letting the event loop run every SLICE characters: while a 1 MB page is converted, the bridge
 * keeps answering its other requests and its workers' timers keep firing (the scan is linear, but 1 MB of tags
 * still takes tens of milliseconds on a busy machine).
 */
export async function htmlToTextYielding(html: string): Promise<string> {
  const steps = convert(html);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function* convert(html: string): Generator<void, string> {
  const n = html.length;
  const cache = new Map<string, number>();
  const shown = new Squeezer();
  // Text inside a hidden element waits here: dropped when the element closes, shown if it never does.
  let held: string[] = [];
  const put = (piece: string) => (hidden ? held.push(piece) : shown.add(piece));
  const lineBreak = () => (hidden ? held.push('\n') : shown.lineBreak());
  let hidden: string | undefined;
  let depth = 0;
  let title: string | undefined;
  let href: string | undefined;
  const endLink = () => {
    if (href !== undefined) put(` (${decodeEntities(href)})`);
    href = undefined;
  };

  let i = 0;
  let lt = -1;
  let amp = -1;
  let pause = SLICE;
  while (i < n) {
    if (i >= pause) {
      pause = i + SLICE;
      yield;
    }
    // Remembered: a long text is taken a slice at a time, and each slice must not search to the end again.
    if (lt < i) {
      lt = html.indexOf('<', i);
      if (lt < 0) lt = n;
    }
    if (lt > i) {
      // Text, decoded a slice at a time; a cut never splits an entity (at most 10 characters long).
      let to = lt;
      if (to - i > SLICE) {
        to = i + SLICE;
        for (let k = to - 1; k > to - 10; k--) {
          if (html.charCodeAt(k) === 38) {
            to = k;
            break;
          }
        }
      }
      if (amp < i) {
        amp = html.indexOf('&', i);
        if (amp < 0) amp = n;
      }
      put(amp < to ? decodeEntities(html.slice(i, to)) : html.slice(i, to));
      i = to;
      continue;
    }
    const c = html.charCodeAt(lt + 1);
    if (c === 33 && html.startsWith('<!--', lt)) {
      // `<!-->` and `<!--->` are empty comments; an unclosed comment runs to the end.
      const close = html.startsWith('>', lt + 4)
        ? lt + 1
        : html.startsWith('->', lt + 4)
          ? lt + 3
          : html.indexOf('-->', lt + 4);
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
      put('<'); // a '<' that starts no tag is text ("a < b")
      i = lt + 1;
      continue;
    }
    i = readTag(html, lt);
    const name = tagName;
    const kind = KIND.get(name);
    if (kind === undefined) continue; // <span>, <b>, <img>, …: nothing to do but skip the tag
    if (tagClosing) {
      if (hidden && name === hidden && --depth === 0) {
        held = [];
        hidden = undefined;
        shown.add(' ');
      } else if (kind === K_A) endLink();
      else if (kind === K_BLOCK) lineBreak();
      continue;
    }
    if (kind === K_RAW || kind === K_TITLE) {
      const close = findEndTag(html, name, i, cache);
      if (kind === K_TITLE) {
        if (close < 0) continue; // an unclosed <title> is ignored and the text after it kept, as before
        // A heading, not a page: the first 1000 characters of the first title.
        title ??= squeeze(decodeEntities(html.slice(i, Math.min(close, i + 1000))))
          .replaceAll('\n', ' ')
          .replaceAll('  ', ' ');
      } else put(' ');
      i = close < 0 ? n : readTag(html, close);
      continue;
    }
    if (hidden && name === hidden && !tagSelfClosing) depth++;
    else if (hidden === 'head' && kind === K_BODY) {
      // <body> ends a <head> whose end tag was left out (it is optional in HTML).
      held = [];
      hidden = undefined;
      depth = 0;
    }
    if (kind === K_HIDDEN && !hidden && !tagSelfClosing) {
      endLink();
      hidden = name;
      depth = 1;
    } else if (kind === K_A) {
      endLink(); // an <a> inside an open <a> closes the first one, as in a browser
      if (tagHref && tagHref.charCodeAt(0) !== 35) href = tagHref;
    } else if (kind === K_LI) put('\n- ');
    else if (kind === K_BLOCK) lineBreak();
  }
  if (hidden) {
    let size = 0;
    for (const piece of held) {
      shown.add(piece);
      size += piece.length;
      if (size >= SLICE) {
        size = 0;
        yield;
      }
    }
  }
  const body = shown.text();
  return title && !body.startsWith(title) ? `${title}\n\n${body}` : body;
}
