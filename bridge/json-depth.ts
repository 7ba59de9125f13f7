// Nesting depth of raw JSON bytes, found without parsing: JSON.parse in V8 accepts any depth, but JSON.stringify
// recurses and throws a RangeError past a few thousand levels, and worker parsers refuse far earlier. Checking the
// bytes before parsing refuses such a body as a request error, before it can build a deep object at all.
// Linear: strings are skipped with the native indexOf, and each backslash run before a quote is walked once.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the brackets of `bytes` (outside strings) nest deeper than `max`. Malformed input is left to the parser. */
export function nestsDeeperThan(bytes: Buffer, max: number): boolean {
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = stringEnd(bytes, i + 1);
      if (i === -1) return false;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > max) return true;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** Index of the quote that closes a string whose content starts at `from`, or -1 when it never closes. */
function stringEnd(bytes: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const q = bytes.indexOf(QUOTE, at);
    if (q === -1) return -1;
    let slashes = 0;
    for (let k = q - 1; k >= from && bytes[k] === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
    at = q + 1;
  }
}
