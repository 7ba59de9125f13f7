// Node-only face of web/core/brand: the PNG writer and the list of committed files drawn from the glyph.
export { encodePng, PNG_DEFLATE_OPTIONS } from './png';
export { brandFiles, ICON_SPECS } from './brand-files';
