// The terminal logo, drawn from the glyph by sampling it on a grid of character cells (a cell is about twice as
// tall as wide). Colour uses 24-bit ANSI and upper-half blocks (two pixels per cell); plain has no escape sequence
// (█ for the mark, ░ for the tile); ASCII draws # and . (with colour off: bytes below 0x80 only, no ESC). It is
// printed for a person and never enters a prompt, a tool schema or a session history.
import { GLYPH, GLYPH_UNITS, glyphPartAt, rgbOf, type GlyphPart } from './glyph';

/** Width of the terminal logo in columns; the height follows (half as many rows). */
export const LOGO_COLUMNS = 18;

export interface LogoStyle {
  /** ANSI colour; false: no escape sequence at all. */
  color: boolean;
  /** Only ASCII characters: # and . (coloured when `color`). */
  ascii: boolean;
}

/** What covers most of a cell: the mark wins from 40% (a thin stroke must not vanish), then tile or outside. */
function partOfCell(x0: number, y0: number, width: number, height: number): GlyphPart {
  const n = 6;
  let ink = 0;
  let out = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const part = glyphPartAt(x0 + ((i + 0.5) * width) / n, y0 + ((j + 0.5) * height) / n);
      if (part === 'ink') ink++;
      else if (part === 'out') out++;
    }
  }
  if (ink >= n * n * 0.4) return 'ink';
  return out > (n * n) / 2 ? 'out' : 'tile';
}

function grid(columns: number, rows: number): GlyphPart[][] {
  const w = GLYPH_UNITS / columns;
  const h = GLYPH_UNITS / rows;
  return Array.from({ length: rows }, (_, r) =>
    Array.from({ length: columns }, (_, c) => partOfCell(c * w, r * h, w, h)),
  );
}

const sgr = (ground: 38 | 48, hex: string) => `\x1b[${ground};2;${rgbOf(hex).join(';')}m`;
const COLOUR: Record<Exclude<GlyphPart, 'out'>, string> = { tile: GLYPH.tile.color, ink: GLYPH.ink };

/**
 * One row of colour cells from two pixel rows: ▀ in the top pixel's colour over the bottom pixel's (▄ when only
 * the bottom one is inside the tile). A colour is sent only when it changes; every line ends reset.
 */
function colourRow(top: GlyphPart[], bottom: GlyphPart[]): string {
  let line = '';
  let fg = '';
  let bg = '';
  const set = (nextFg: string, nextBg: string) => {
    if (nextFg !== fg) line += nextFg === '' ? '\x1b[39m' : sgr(38, nextFg);
    if (nextBg !== bg) line += nextBg === '' ? '\x1b[49m' : sgr(48, nextBg);
    fg = nextFg;
    bg = nextBg;
  };
  for (let c = 0; c < top.length; c++) {
    const t = top[c]!;
    const b = bottom[c]!;
    if (t === 'out' && b === 'out') {
      set(fg, '');
      line += ' ';
    } else if (t === 'out') {
      set(COLOUR[b as 'tile'], '');
      line += '▄';
    } else {
      set(COLOUR[t], b === 'out' ? '' : COLOUR[b]);
      line += '▀';
    }
  }
  return `${line}\x1b[0m`;
}

/** The logo as lines joined by "\n", with a final newline; trailing spaces trimmed in the plain forms. */
export function terminalLogo(style: LogoStyle): string {
  const rows = LOGO_COLUMNS / 2;
  if (style.color && !style.ascii) {
    const px = grid(LOGO_COLUMNS, rows * 2);
    return `${Array.from({ length: rows }, (_, r) => colourRow(px[2 * r]!, px[2 * r + 1]!)).join('\n')}\n`;
  }
  const chars: Record<GlyphPart, string> = style.ascii
    ? { out: ' ', tile: '.', ink: '#' }
    : { out: ' ', tile: '░', ink: '█' };
  const lines = grid(LOGO_COLUMNS, rows).map((row) => {
    if (!style.color)
      return row
        .map((p) => chars[p])
        .join('')
        .trimEnd();
    // Coloured ASCII: each run of one part in its colour (the characters stay ASCII; the escapes are colour).
    let line = '';
    let last: GlyphPart | null = null;
    for (const p of row) {
      if (p !== last) line += p === 'out' ? '\x1b[39m' : sgr(38, COLOUR[p]);
      line += chars[p];
      last = p;
    }
    return `${line}\x1b[0m`;
  });
  return `${lines.join('\n')}\n`;
}

/**
 * Whether colour may be used (https://no-color.org): never when NO_COLOR is set to anything but the empty string,
 * nor for TERM=dumb. Every place `i` prints colour asks this.
 */
export function colourAllowed(env: Record<string, string | undefined>): boolean {
  return !env.NO_COLOR && env.TERM !== 'dumb';
}
