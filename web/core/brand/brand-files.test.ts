// The committed logo and icons are exactly what the glyph gives, byte for byte: a change of the glyph without
// `node scripts/make-icons.mjs`, or a hand-edited icon, fails here.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GLYPH, glyphPathData, rgbOf } from './glyph';
import { brandFiles, encodePng, ICON_SPECS } from './node';
import { rasterScanlines } from './raster';

const repo = resolve(__dirname, '../../..');

describe('brand files', () => {
  it('regenerates every committed icon and logo byte-identically from the glyph', () => {
    const files = brandFiles();
    expect(files.map((f) => f.path).sort()).toEqual(
      ['public/favicon.svg', 'public/logo.svg', ...ICON_SPECS.map((s) => s.path)].sort(),
    );
    for (const { path, bytes } of files) {
      expect(
        Buffer.from(bytes).equals(readFileSync(join(repo, path))),
        `${path} differs from the glyph: run node scripts/make-icons.mjs`,
      ).toBe(true);
    }
  });

  it('encodes the same scanlines to the same PNG bytes every time', () => {
    const spec = { size: 64, maskable: false };
    const a = encodePng(64, rasterScanlines(spec));
    const b = encodePng(64, rasterScanlines(spec));
    expect(a.equals(b)).toBe(true);
  });

  it('draws the glyph into the PNG: ink at the stem and dot, tile at the corner zone, transparent outside the rounded tile', () => {
    const png = brandFiles().find((f) => f.path === 'public/icons/icon-512.png')!.bytes;
    const buf = Buffer.from(png);
    expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
    const idat = buf.indexOf('IDAT');
    const raw = inflateSync(buf.subarray(idat + 4, idat + 4 + buf.readUInt32BE(idat - 4)));
    const at = (x: number, y: number) =>
      Array.from(raw.subarray(y * (512 * 4 + 1) + 1 + x * 4, y * (512 * 4 + 1) + 5 + x * 4));
    expect(at(256, 300)).toEqual([...rgbOf(GLYPH.ink), 255]);
    expect(at(GLYPH.dot.cx, GLYPH.dot.cy)).toEqual([...rgbOf(GLYPH.ink), 255]);
    expect(at(256, 180)).toEqual([...rgbOf(GLYPH.tile.color), 255]);
    expect(at(1, 1)).toEqual([0, 0, 0, 0]);
    // The maskable icon fills its square: its corner is tile, not transparent.
    const maskable = rasterScanlines({ size: 512, maskable: true });
    expect(Array.from(maskable.subarray(1 + 4, 1 + 8))).toEqual([...rgbOf(GLYPH.tile.color), 255]);
  });

  it('public/logo.svg draws the glyph path data', () => {
    const svg = readFileSync(join(repo, 'public/logo.svg'), 'utf8');
    expect(svg).toContain(`d="${glyphPathData()}"`);
  });
});
