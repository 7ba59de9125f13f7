// `i logo` as a real process: the plain ASCII form is pure ASCII without escapes, --svg is the glyph's vector file,
// NO_COLOR turns the colour off.
import { describe, expect, it } from 'vitest';
import { glyphPathData, logoSvg } from '../brand';
import { useBuiltCli } from './cli-test-kit';

const run = useBuiltCli('logo');

/** Well-formed XML of the simple kind logo.svg is: matched tags, quoted attributes, nothing between the tags. */
function checkSvg(text: string): Array<{ name: string; attrs: Record<string, string> }> {
  const elements: Array<{ name: string; attrs: Record<string, string> }> = [];
  const open: string[] = [];
  const rest = text
    .trim()
    .replace(
      /<(\/?)([a-z]+)((?:\s+[a-zA-Z:]+="[^"<>]*")*)\s*(\/?)>/g,
      (_all, close: string, name: string, attrText: string, self: string) => {
        if (close) {
          expect(open.pop()).toBe(name);
        } else {
          const attrs = Object.fromEntries(
            [...attrText.matchAll(/([a-zA-Z:]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
          );
          elements.push({ name, attrs });
          if (!self) open.push(name);
        }
        return '';
      },
    );
  expect(rest).toBe('');
  expect(open).toEqual([]);
  return elements;
}

describe('i logo', () => {
  it('--plain --ascii prints only bytes below 0x80 and no ESC', async () => {
    const r = await run(['logo', '--plain', '--ascii'], { cwd: process.cwd(), env: { TERM: 'xterm-256color' } });
    expect(r.code).toBe(0);
    const bytes = Buffer.from(r.stdout, 'utf8');
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.every((b) => b < 0x80 && b !== 0x1b)).toBe(true);
    expect(r.stdout).toContain('##');
  });

  it('--svg prints valid SVG whose path data is the glyph’s', async () => {
    const r = await run(['logo', '--svg'], { cwd: process.cwd() });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(logoSvg());
    const elements = checkSvg(r.stdout);
    expect(elements[0]).toEqual({
      name: 'svg',
      attrs: { xmlns: 'http://www.w3.org/2000/svg', viewBox: '0 0 512 512' },
    });
    const path = elements.find((e) => e.name === 'path')!;
    expect(path.attrs.d).toBe(glyphPathData());
    // SVG path grammar for the commands the glyph uses.
    expect(path.attrs.d).toMatch(/^(M-?\d+ -?\d+([hv]-?\d+|a\d+ \d+ 0 [01] [01] -?\d+ -?\d+)*z)+$/);
  });

  it('colours by default and not under NO_COLOR or --plain; refuses --svg with --ascii', async () => {
    const coloured = await run(['logo'], { cwd: process.cwd() });
    expect(coloured.stdout).toContain('\x1b[');
    for (const [args, env] of [
      [['logo'], { NO_COLOR: '1' }],
      [['logo', '--plain'], {}],
    ] as const) {
      const r = await run([...args], { cwd: process.cwd(), env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('\x1b');
      expect(r.stdout).toContain('█');
    }
    const bad = await run(['logo', '--svg', '--ascii'], { cwd: process.cwd() });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error E_USAGE: --svg prints the vector file/);
  });
});
