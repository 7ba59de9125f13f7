#!/usr/bin/env node
// Draws the app icons (a lowercase "i" on a dark rounded square) as PNGs with no image library, so the
// committed icons in public/icons can be regenerated anywhere: `node scripts/make-icons.mjs`.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};

function icon(size, { maskable }) {
  const bg = [15, 17, 21];
  const accent = [124, 196, 255];
  const raw = Buffer.alloc(size * (size * 4 + 1));
  const radius = maskable ? 0 : size * 0.22;
  const inside = (x, y) => {
    const r = radius;
    const cx = Math.min(Math.max(x, r), size - r);
    const cy = Math.min(Math.max(y, r), size - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
  // Safe zone for maskable icons is the centre 80%: keep the glyph within it.
  const s = size / 512;
  const stemX0 = 226 * s, stemX1 = 286 * s, stemY0 = 210 * s, stemY1 = 400 * s;
  const dotCx = 256 * s, dotCy = 140 * s, dotR = 36 * s;
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const o = y * (size * 4 + 1) + 1 + x * 4;
      const px = x + 0.5, py = y + 0.5;
      let col = null;
      if (inside(px, py)) col = bg;
      if (px >= stemX0 && px <= stemX1 && py >= stemY0 && py <= stemY1) col = accent;
      if ((px - dotCx) ** 2 + (py - dotCy) ** 2 <= dotR * dotR) col = accent;
      if (col) { raw[o] = col[0]; raw[o + 1] = col[1]; raw[o + 2] = col[2]; raw[o + 3] = 255; }
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; ihdr[9] = 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync('public/icons', { recursive: true });
writeFileSync('public/icons/icon-192.png', icon(192, { maskable: false }));
writeFileSync('public/icons/icon-512.png', icon(512, { maskable: false }));
writeFileSync('public/icons/icon-maskable-512.png', icon(512, { maskable: true }));
writeFileSync('public/icons/apple-touch-icon.png', icon(180, { maskable: true }));
console.log('icons written to public/icons');
