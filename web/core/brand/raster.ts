// The glyph as pixels, for the PNG icons: one sample at each pixel's centre (hard edges, so the same glyph always
// gives the same bytes). Rows are PNG scanlines: a filter byte (0, none) then RGBA; outside the tile is transparent.
import { GLYPH, GLYPH_UNITS, glyphPartAt, rgbOf } from './glyph';

export interface IconSpec {
  size: number;
  /** Maskable (and Apple touch) icons fill the whole square: the platform applies its own mask. The mark stays
   * inside the centre 80% safe zone either way. */
  maskable: boolean;
}

export function rasterScanlines({ size, maskable }: IconSpec): Uint8Array {
  const stride = size * 4 + 1;
  const raw = new Uint8Array(size * stride);
  const colours = { tile: rgbOf(GLYPH.tile.color), ink: rgbOf(GLYPH.ink) };
  const scale = GLYPH_UNITS / size;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const part = glyphPartAt((x + 0.5) * scale, (y + 0.5) * scale, { rounded: !maskable });
      if (part === 'out') continue;
      const o = y * stride + 1 + x * 4;
      raw.set(colours[part], o);
      raw[o + 3] = 255;
    }
  }
  return raw;
}
