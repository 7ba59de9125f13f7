// Theme colours made readable on the app's code background. GitHub's themes are drawn for GitHub's white and
// near-black; on the app's sunken code background (#eef0f3 light, #0b0d10 dark, web/ui/styles/app.css) some fall
// below WCAG AA for small text (light keyword red #d73a49: 4.0:1). A colour under 4.5:1 is moved towards black
// (light) or white (dark) in small steps until it reaches it, keeping its hue; colours that pass are unchanged.

/** The code background of each scheme (`--bg-sunken`); a colour readable on it is readable on `--bg` too. */
export const CODE_BACKGROUND = { light: 'eef0f3', dark: '0b0d10' } as const;
export const MIN_CONTRAST = 4.5;

const channels = (hex: string): [number, number, number] => {
  const full =
    hex.length === 3 || hex.length === 4
      ? hex
          .slice(0, 3)
          .split('')
          .map((c) => c + c)
          .join('')
      : hex.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
};

const luminance = ([r, g, b]: [number, number, number]) => {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};

/** WCAG contrast ratio of two colours given as hex without `#`. */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(channels(a)), luminance(channels(b))];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

const hex = (rgb: number[]) => rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');

/** `colour` (hex without `#`), or the nearest mix of it with black or white that reaches MIN_CONTRAST on `background`. */
export function readableOn(colour: string, background: string): string {
  if (contrast(colour, background) >= MIN_CONTRAST) return colour;
  const rgb = channels(colour);
  const target = luminance(channels(background)) > 0.5 ? 0 : 255;
  for (let step = 1; step <= 20; step++) {
    const mixed = hex(rgb.map((c) => c + (target - c) * (step / 20)));
    if (contrast(mixed, background) >= MIN_CONTRAST) return mixed;
  }
  return target === 0 ? '000000' : 'ffffff';
}
