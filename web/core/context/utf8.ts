// UTF-8 byte helpers shared by the content store and the result policy: every cut lands on a character boundary,
// so a page or preview never ends in half a character (seed 002: "字节游标必须位于字符边界；每页向下取完整字符").
export const utf8Encoder = new TextEncoder();
// ignoreBOM: a page cut from text that starts with U+FEFF keeps it (the text round-trips byte for byte).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

export const utf8Length = (text: string): number => utf8Encoder.encode(text).length;

/** True when `offset` starts a character (or is the end of the bytes). */
export function isCharBoundary(bytes: Uint8Array, offset: number): boolean {
  return offset === bytes.length || (offset >= 0 && offset < bytes.length && (bytes[offset]! & 0xc0) !== 0x80);
}

/** The largest boundary <= `end` (and >= `start`): the end of the last whole character that fits. */
export function floorCharBoundary(bytes: Uint8Array, start: number, end: number): number {
  let cut = Math.min(end, bytes.length);
  while (cut > start && !isCharBoundary(bytes, cut)) cut--;
  return cut;
}

export const decodeUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes);

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes, cut on a character boundary. */
export function utf8Prefix(text: string, maxBytes: number): { text: string; bytes: number } {
  const bytes = utf8Encoder.encode(text);
  if (bytes.length <= maxBytes) return { text, bytes: bytes.length };
  const cut = floorCharBoundary(bytes, 0, maxBytes);
  return { text: decodeUtf8(bytes.subarray(0, cut)), bytes: cut };
}
