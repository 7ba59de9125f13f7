// CRC-32 (IEEE 802.3, the ZIP checksum), slicing-by-8: eight bytes per step through eight 256-entry tables.
const T = (() => {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 8; k++) t[k * 256 + n] = (t[(k - 1) * 256 + n]! >>> 8) ^ t[t[(k - 1) * 256 + n]! & 0xff]!;
  }
  return t;
})();

export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  let i = 0;
  const n = bytes.length;
  for (; i + 8 <= n; i += 8) {
    c ^= bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    c =
      T[1792 + (c & 0xff)]! ^
      T[1536 + ((c >>> 8) & 0xff)]! ^
      T[1280 + ((c >>> 16) & 0xff)]! ^
      T[1024 + (c >>> 24)]! ^
      T[768 + bytes[i + 4]!]! ^
      T[512 + bytes[i + 5]!]! ^
      T[256 + bytes[i + 6]!]! ^
      T[bytes[i + 7]!]!;
  }
  for (; i < n; i++) c = T[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
