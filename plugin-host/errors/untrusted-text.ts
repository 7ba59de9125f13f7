// Showing untrusted text (plugin frames, manifests, model output, worker stderr) to a person safely. Three needs:
// - refuse names that hide what they are (bidi overrides, zero-width characters, C1 controls): `findInvisibleChar`;
// - quote a bounded prefix of it inside an error, so nothing a plugin or worker sends can make an error large:
//   `quoteUntrusted`;
// - make control characters visible instead of letting a terminal or a bidi algorithm act on them: `escapeControls`.
// Pure and allocation-light: these run on the error path of hostile input.

/** What `findInvisibleChar` found: the UTF-16 index and the code point. */
export interface InvisibleChar {
  index: number;
  codePoint: number;
}

/**
 * True for characters that change how surrounding text is displayed or that display as nothing: bidirectional
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+061C, U+200E/U+200F), zero-width and invisible
 * characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E, deprecated format controls U+206A–U+206F) and the C1
 * controls U+0080–U+009F (a terminal treats U+009B as CSI).
 */
export function isInvisibleCodePoint(c: number): boolean {
  if (c < 0x80) return false;
  if (c <= 0x9f) return true;
  if (c === 0x061c || c === 0x180e || c === 0xfeff) return true;
  if (c >= 0x200b && c <= 0x200f) return true;
  if (c >= 0x202a && c <= 0x202e) return true;
  return c >= 0x2060 && c <= 0x206f && c !== 0x2065;
}

/** The first invisible, bidi or C1 character in `text`, or undefined when there is none. */
export function findInvisibleChar(text: string): InvisibleChar | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Every code point the check names is in the BMP and not a surrogate: no need to decode pairs.
    if (c >= 0x80 && isInvisibleCodePoint(c)) return { index: i, codePoint: c };
  }
  return undefined;
}

/** `U+202E` for 0x202e. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Characters escapeControls rewrites: C0 (optionally keeping \n and \t), DEL, and everything isInvisibleCodePoint names. */
function needsEscape(c: number, keepLayout: boolean): boolean {
  if (c < 0x20) return !(keepLayout && (c === 0x0a || c === 0x09));
  if (c === 0x7f) return true;
  return c >= 0x80 && isInvisibleCodePoint(c);
}

/** `\x1b` for code units below 0x100, `\u202e` above: how escaped characters are shown. */
export function escapeOne(c: number): string {
  return c < 0x100 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
}

/**
 * Rewrites every UTF-16 unit `shouldEscape` names with `escape`, copying the runs between them once. A string with
 * nothing to rewrite is returned as is. The one loop behind escapeControls and the terminal forms.
 */
export function rewriteUnits(
  text: string,
  shouldEscape: (c: number) => boolean,
  escape: (c: number) => string = escapeOne,
): string {
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!shouldEscape(c)) continue;
    out = (out ?? '') + text.slice(from, i) + escape(c);
    from = i + 1;
  }
  return out === undefined ? text : out + text.slice(from);
}

/**
 * Rewrites control, bidi and invisible characters as visible escapes (`\x1b`, `\u009b`, `\u202e`), so untrusted text
 * written to a terminal cannot move the cursor, retitle the window or reorder what is shown. With `keepLayout` (the
 * default) newlines and tabs stay as they are. A string without such characters is returned as is.
 */
export function escapeControls(text: string, options: { keepLayout?: boolean } = {}): string {
  const keepLayout = options.keepLayout ?? true;
  return rewriteUnits(text, (c) => needsEscape(c, keepLayout));
}

/** Default number of characters of untrusted text an error quotes. */
export const QUOTE_MAX_CHARS = 200;

/**
 * A bounded, one-line quote of untrusted text for an error message: at most `max` characters (never splitting a
 * surrogate pair), controls escaped, and the full length when it was cut, e.g. `"aaaa…" (3145728 characters)`.
 * Non-strings are described by their type, never serialised.
 */
export function quoteUntrusted(value: unknown, max = QUOTE_MAX_CHARS): string {
  if (typeof value !== 'string') return describeValue(value);
  let end = Math.min(value.length, max);
  const last = value.charCodeAt(end - 1);
  if (end < value.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const head = escapeControls(
    value.slice(0, end).replace(/["\\]/g, (ch) => `\\${ch}`),
    { keepLayout: false },
  );
  return end < value.length ? `"${head}…" (${value.length} characters)` : `"${head}"`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  switch (typeof value) {
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value).slice(0, QUOTE_MAX_CHARS);
    case 'undefined':
      return 'nothing';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
