// A minimal PNG writer (8-bit RGBA, no interlace) for the app icons, with every zlib option spelled out: the same
// scanlines and the same zlib give the same bytes, which the icons test relies on. Node-only (node:zlib).
import { constants, deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** Fixed deflate settings: level 9, 32 KiB window, default memory level and strategy, no dictionary. */
export const PNG_DEFLATE_OPTIONS = {
  level: 9,
  windowBits: 15,
  memLevel: 8,
  strategy: constants.Z_DEFAULT_STRATEGY,
} as const;

/** A PNG of `size`×`size` from scanlines (filter byte + RGBA per row, as raster.ts makes them). */
export function encodePng(size: number, scanlines: Uint8Array): Buffer {
  if (scanlines.length !== size * (size * 4 + 1))
    throw new RangeError(`expected ${size} scanlines of ${size * 4 + 1} bytes`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits per channel, RGBA, deflate, adaptive filtering, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(scanlines, PNG_DEFLATE_OPTIONS)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
