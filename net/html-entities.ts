// Character references for html-to-text.ts (web_fetch): `&name;` for the few names pages use for text, `&#nn;`
// and `&#xhh;`. Untrusted text, so no regex and no allocation for a reference that is not one: each `&` looks at
// most 10 characters ahead, and names are compared in place.

const NAMED = Object.entries({
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  mdash: '—',
  ndash: '–',
  hellip: '…',
  copy: '©',
  reg: '®',
  laquo: '«',
  raquo: '»',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
});
/** The names by their first letter's code, for comparing in place. All are lower-case ASCII letters. */
const NAMED_BY_FIRST: Record<number, Array<[string, string]>> = {};
for (const entry of NAMED) (NAMED_BY_FIRST[entry[0].charCodeAt(0)] ??= []).push(entry);

export const isAlpha = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

/** The entity between `&` at text[from - 1] and `;` at text[to]: `#x41`, `#65` or `amp`, as the old converter took them. */
function entity(text: string, from: number, to: number): string | undefined {
  if (text.charCodeAt(from) === 35) {
    const hex = text.charCodeAt(from + 1) === 120 || text.charCodeAt(from + 1) === 88;
    const start = from + (hex ? 2 : 1);
    if (to === start || to - start > (hex ? 6 : 7)) return undefined;
    let code = 0;
    for (let k = start; k < to; k++) {
      const c = text.charCodeAt(k);
      if (isDigit(c)) code = code * (hex ? 16 : 10) + (c - 48);
      else if (hex && isHex(c)) code = code * 16 + ((c | 32) - 87);
      else return undefined;
    }
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return undefined;
    return code < 0x10000 ? String.fromCharCode(code) : String.fromCodePoint(code);
  }
  if (to - from < 2) return undefined;
  // Compared in place, without cutting the name out: a page of bogus entities should cost no allocations.
  for (const [name, value] of NAMED_BY_FIRST[text.charCodeAt(from) | 32] ?? []) {
    if (name.length !== to - from) continue;
    let k = 1;
    while (k < name.length && (text.charCodeAt(from + k) | 32) === name.charCodeAt(k)) k++;
    if (k === name.length) return value;
  }
  return undefined;
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
    const decoded = text.charCodeAt(j) === 59 ? entity(text, amp + 1, j) : undefined;
    if (decoded !== undefined) {
      out.push(text.slice(last, amp), decoded);
      last = j + 1;
    }
    amp = text.indexOf('&', decoded !== undefined ? j + 1 : amp + 1);
  }
  out.push(text.slice(last));
  return out.join('');
}
