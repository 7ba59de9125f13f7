// SHA-256 through WebCrypto: the same code in the browser, the agent Worker and Node 20 (globalThis.crypto).
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let out = '';
  for (const b of digest) out += HEX[b]!;
  return out;
}

export const SHA256_PATTERN = /^[0-9a-f]{64}$/;
