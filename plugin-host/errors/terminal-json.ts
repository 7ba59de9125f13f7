// JSON for a terminal or a log: exactly the value JSON.stringify writes, but with no raw character that a terminal
// or a bidi algorithm acts on. JSON.stringify already writes C0 controls as \u00XX; it leaves DEL, the C1 controls
// (U+009B is CSI to many terminals), bidi and zero-width characters raw. Those can only occur inside JSON strings
// (every structural character is printable ASCII), where `\uXXXX` means the same character: the output parses back
// to the same value, so `--json` stays exact.
import { isInvisibleCodePoint } from './untrusted-text';

/** JSON.stringify(value, null, space) with DEL, C1, bidi, zero-width characters and U+2028/U+2029 as `\uXXXX`. */
export function stringifyForTerminal(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  if (text === undefined) return text as unknown as string;
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x7f || !(c === 0x7f || c === 0x2028 || c === 0x2029 || isInvisibleCodePoint(c))) continue;
    out = (out ?? '') + text.slice(from, i) + `\\u${c.toString(16).padStart(4, '0')}`;
    from = i + 1;
  }
  return out === undefined ? text : out + text.slice(from);
}
