// Public face of web/core/brand: the one glyph of the logo and its renderings (SVG text, terminal). The PNG
// icons (Node: zlib) are in ./node.ts. Only the CLI commands and scripts/make-icons.mjs use this folder: the logo
// is for people and never enters a prompt, schema or history.
export { GLYPH, GLYPH_UNITS, glyphPartAt, glyphPathData, rgbOf, type GlyphPart } from './glyph';
export { logoSvg } from './svg';
export { colourAllowed, LOGO_COLUMNS, terminalLogo, type LogoStyle } from './terminal';
export { rasterScanlines, type IconSpec } from './raster';
