// The file name a download URL stores as: escapes decoded, a broken escape refused with a code and what to do.
import { describe, expect, it } from 'vitest';
import { nameFromUrl } from './model-store';

describe('nameFromUrl', () => {
  it('decodes %-escapes in the last path segment', () => {
    expect(nameFromUrl('https://h/x/Qwen%20small-Q4_K_M.gguf?download=true')).toBe('Qwen small-Q4_K_M.gguf');
  });

  it.each(['https://h/x/%E0%A4%A.gguf', 'https://h/x/model%ZZ.gguf', 'https://h/x/%FF.gguf'])(
    'refuses a broken escape in %s with E_BROWSER_MODEL_URL, not a URIError',
    (url) => {
      let thrown: unknown;
      try {
        nameFromUrl(url);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).not.toBeInstanceOf(URIError);
      expect(thrown).toMatchObject({
        code: 'E_BROWSER_MODEL_URL',
        message: expect.stringMatching(/broken %-escape .*Copy the address again/),
      });
    },
  );
});
