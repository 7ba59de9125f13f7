// Headless i has no browser tab: a config with protocol "browser" is refused, naming the file and what to use.
import { describe, expect, it } from 'vitest';
import { parseModelConfig } from '../headless/model-config';

describe('protocol "browser" in headless i', () => {
  it('is refused with E_CONFIG_UNSUPPORTED and the llama-server alternative', () => {
    expect(() => parseModelConfig({ protocol: 'browser', model: 'm.gguf' }, 'model.json')).toThrow(
      expect.objectContaining({
        code: 'E_CONFIG_UNSUPPORTED',
        message: expect.stringMatching(/model\.json .*llama-server/),
      }),
    );
  });
});
