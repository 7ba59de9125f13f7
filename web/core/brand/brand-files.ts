// Every committed file drawn from the glyph, with its bytes: what scripts/make-icons.mjs writes and what the
// brand-files test compares with the repository. Paths are relative to the repository root. Node-only (PNG).
import { encodePng } from './png';
import { rasterScanlines, type IconSpec } from './raster';
import { logoSvg } from './svg';

export const ICON_SPECS: ReadonlyArray<IconSpec & { path: string }> = [
  { path: 'public/icons/icon-192.png', size: 192, maskable: false },
  { path: 'public/icons/icon-512.png', size: 512, maskable: false },
  { path: 'public/icons/icon-maskable-512.png', size: 512, maskable: true },
  { path: 'public/icons/apple-touch-icon.png', size: 180, maskable: true },
];

export function brandFiles(): Array<{ path: string; bytes: Uint8Array }> {
  const svg = new TextEncoder().encode(logoSvg());
  return [
    { path: 'public/logo.svg', bytes: svg },
    { path: 'public/favicon.svg', bytes: svg },
    ...ICON_SPECS.map((spec) => ({ path: spec.path, bytes: encodePng(spec.size, rasterScanlines(spec)) })),
  ];
}
