// Writing untrusted text to a terminal. Two forms besides `escapeControls` (one-line names and error quotes):
// - `escapeProse`: long text a person reads (a model's answer, a plugin's output): terminal controls and bidi
//   overrides escaped, but the joiners and marks that scripts need kept (see its comment);
// - `stringifyForTerminal`: exactly the value JSON.stringify writes, but with no raw character that a terminal
//   or a bidi algorithm acts on.
//
// About the JSON form: JSON.stringify already writes C0 controls as \u00XX; it leaves DEL, the C1 controls
// (U+009B is CSI to many terminals), bidi and zero-width characters raw. Those can only occur inside JSON strings
// (every structural character is printable ASCII), where `\uXXXX` means the same character: the output parses back
// to the same value, so `--json` stays exact.
import { isInvisibleCodePoint, rewriteUnits } from './untrusted-text';

/** JSON.stringify(value, null, space) with DEL, C1, bidi, zero-width characters and U+2028/U+2029 as `\uXXXX`. */
export function stringifyForTerminal(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space);
  if (text === undefined) return text as unknown as string;
  return rewriteUnits(
    text,
    (c) => c >= 0x7f && (c === 0x7f || c === 0x2028 || c === 0x2029 || isInvisibleCodePoint(c)),
    (c) => `\\u${c.toString(16).padStart(4, '0')}`,
  );
}

/**
 * Prose for a terminal: C0 controls except newline and tab, DEL, C1 (U+009B is CSI) and the bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) as visible escapes; everything else as it is. Unlike
 * `escapeControls` it keeps zero-width joiners and non-joiners (Persian, Indic scripts, emoji sequences), LRM/RLM
 * and U+FEFF: they change no terminal state, and escaping them would garble ordinary text.
 */
export function escapeProse(text: string): string {
  return rewriteUnits(text, (c) =>
    c < 0x20
      ? c !== 0x0a && c !== 0x09
      : c === 0x7f || (c >= 0x80 && c <= 0x9f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069),
  );
}
