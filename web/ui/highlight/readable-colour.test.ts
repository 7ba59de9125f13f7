import { describe, expect, it } from 'vitest';
import { CODE_BACKGROUND, contrast, MIN_CONTRAST, readableOn } from './readable-colour';

describe('syntax colours on the code background', () => {
  it('darkens GitHub light keyword red until it reads at 4.5:1, keeping colours that already do', () => {
    expect(contrast('d73a49', CODE_BACKGROUND.light)).toBeLessThan(MIN_CONTRAST);
    const fixed = readableOn('d73a49', CODE_BACKGROUND.light);
    expect(fixed).not.toBe('d73a49');
    expect(contrast(fixed, CODE_BACKGROUND.light)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrast(fixed, 'f6f7f9')).toBeGreaterThanOrEqual(MIN_CONTRAST); // --bg too
    expect(readableOn('24292e', CODE_BACKGROUND.light)).toBe('24292e');
  });

  it('lightens a dark-theme colour that is too dim on the dark code background', () => {
    const dim = '6a737d';
    expect(contrast(dim, CODE_BACKGROUND.dark)).toBeLessThan(MIN_CONTRAST);
    expect(contrast(readableOn(dim, CODE_BACKGROUND.dark), CODE_BACKGROUND.dark)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(readableOn('f97583', CODE_BACKGROUND.dark)).toBe('f97583');
  });
});
