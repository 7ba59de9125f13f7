// Terminal-safe, bounded text for what net/ and i-bridge quote but do not control. net/ and the bridge import
// nothing from web/ or plugin-host/ (see eslint.config.js), so this is a small copy of
// plugin-host/errors/untrusted-text.ts's `escapeControls` and `quoteUntrusted`; keep the two in step
// (net/untrusted-text.test.ts pins the same escapes). It lives in net/ because net/web-fetch.ts quotes a redirect
// target with it; the bridge imports it from here (one copy below both, not one each).
// Worker stderr, MCP server names and messages, manifest names and paths reach the bridge's log lines: written raw,
// ESC/CSI sequences in them could retitle the terminal, clear it or fake other lines.

/** C1 controls, bidi embeddings/overrides/isolates and zero-width or invisible format characters. */
function isInvisible(c: number): boolean {
  if (c < 0x80) return false;
  if (c <= 0x9f) return true;
  if (c === 0x061c || c === 0x180e || c === 0xfeff) return true;
  if (c >= 0x200b && c <= 0x200f) return true;
  if (c >= 0x202a && c <= 0x202e) return true;
  return c >= 0x2060 && c <= 0x206f && c !== 0x2065;
}

/**
 * Rewrites C0 controls (newlines and tabs too, unless `keepLayout`), DEL, C1, bidi and invisible characters as
 * visible escapes (`\x1b`, `\x9b`, `\u202e`). Text without them is returned as it is.
 */
export function escapeControls(text: string, options: { keepLayout?: boolean } = {}): string {
  const keepLayout = options.keepLayout ?? false;
  let out: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const escape = c < 0x20 ? !(keepLayout && (c === 0x0a || c === 0x09)) : c === 0x7f || isInvisible(c);
    if (!escape) continue;
    out =
      (out ?? '') +
      text.slice(from, i) +
      (c < 0x100 ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`);
    from = i + 1;
  }
  return out === undefined ? text : out + text.slice(from);
}

/**
 * A bounded, one-line quote of untrusted text for an error the bridge answers with (an MCP server's message, a
 * worker's error, a redirect target): at most `max` characters, controls escaped, the full length when cut. The
 * copy of plugin-host's `quoteUntrusted` for net/ and the bridge: nothing a worker, server or page sends may make
 * an error large.
 */
export function quoteUntrusted(text: string, max = 200): string {
  return boundedText(text, max, '"');
}

/**
 * The same bound without quotes, for text that reads as part of the sentence (a server's own error message inside
 * parentheses): at most `max` characters, controls escaped, `… (N characters)` when cut.
 */
export function boundedText(text: string, max = 200, quote = ''): string {
  let end = Math.min(text.length, max);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const cut = text.slice(0, end);
  const head = escapeControls(quote ? cut.replace(/["\\]/g, (ch) => `\\${ch}`) : cut);
  return end < text.length ? `${quote}${head}…${quote} (${text.length} characters)` : `${quote}${head}${quote}`;
}
