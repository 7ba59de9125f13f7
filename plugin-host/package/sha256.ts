// SHA-256 as lowercase hex. WebCrypto is native and measured several times faster than @noble/hashes on large
// inputs (validate.bench.ts), but it is async and exists only in secure contexts; @noble/hashes covers small
// inputs (no promise round-trip) and any context without crypto.subtle.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

/** Inputs at least this large go to WebCrypto when it is available. */
export const WEBCRYPTO_THRESHOLD = 64 * 1024;

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += bytes[i]!.toString(16).padStart(2, '0');
  return out;
}

export function sha256HexNoble(bytes: Uint8Array): string {
  return toHex(nobleSha256(bytes));
}

export async function sha256HexWebCrypto(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/** SHA-256 of the exact bytes, lowercase hex; uses the faster implementation for the input size. */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  if (bytes.length >= WEBCRYPTO_THRESHOLD && globalThis.crypto?.subtle) return sha256HexWebCrypto(bytes);
  return sha256HexNoble(bytes);
}
