// The terminal logo is drawn from the glyph, and its plain and ASCII forms carry no escape sequence.
import { describe, expect, it } from 'vitest';
import { GLYPH, rgbOf } from './glyph';
import { colourAllowed, LOGO_COLUMNS, terminalLogo } from './terminal';

describe('terminal logo', () => {
  it('ASCII form: bytes below 0x80 only, no ESC, the "i" as # on a . tile with rounded corners', () => {
    const text = terminalLogo({ color: false, ascii: true });
    expect([...Buffer.from(text, 'utf8')].every((b) => b < 0x80 && b !== 0x1b)).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(LOGO_COLUMNS / 2);
    expect(lines[0]!.startsWith(' .')).toBe(true); // a rounded corner
    // The dot, a gap of tile, then the stem, all in the same columns.
    const inkRows = lines.map((l, i) => (l.includes('#') ? i : -1)).filter((i) => i >= 0);
    expect(inkRows.length).toBeGreaterThanOrEqual(3);
    expect(inkRows[1]! - inkRows[0]!).toBeGreaterThan(1);
    const columns = new Set(lines.filter((l) => l.includes('#')).map((l) => l.indexOf('#')));
    expect(columns.size).toBe(1);
  });

  it('plain form: block characters and no escape sequence', () => {
    const text = terminalLogo({ color: false, ascii: false });
    expect(text).not.toContain('\x1b');
    expect(text).toContain('█');
    expect(text.replace(/[█░ \n]/g, '')).toBe('');
  });

  it('colour form: 24-bit colours of the glyph, every line reset at its end', () => {
    const text = terminalLogo({ color: true, ascii: false });
    expect(text).toContain(`\x1b[48;2;${rgbOf(GLYPH.ink).join(';')}m`);
    expect(text).toContain(`\x1b[38;2;${rgbOf(GLYPH.tile.color).join(';')}m`);
    for (const line of text.trimEnd().split('\n')) expect(line.endsWith('\x1b[0m')).toBe(true);
  });

  it('colour is off when NO_COLOR is set (to anything but empty) or TERM is dumb', () => {
    expect(colourAllowed({})).toBe(true);
    expect(colourAllowed({ NO_COLOR: '' })).toBe(true);
    expect(colourAllowed({ NO_COLOR: '1' })).toBe(false);
    expect(colourAllowed({ TERM: 'dumb' })).toBe(false);
  });
});
