// The vector logo (public/logo.svg, public/favicon.svg, `i logo --svg`), drawn from the glyph: the tile as a
// rounded rect, the mark as the glyph's path data.
import { GLYPH, GLYPH_UNITS, glyphPathData } from './glyph';

export function logoSvg(): string {
  const u = GLYPH_UNITS;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${u} ${u}">` +
    `<rect width="${u}" height="${u}" rx="${GLYPH.tile.radius}" fill="${GLYPH.tile.color}"/>` +
    `<path fill="${GLYPH.ink}" d="${glyphPathData()}"/>` +
    `</svg>\n`
  );
}
