// `tool_protocol` in the model config file: "native" by default, "json" accepted, anything else refused with its path.
import { describe, expect, it } from 'vitest';
import { parseModelConfig } from './model-config';

const BASE = { base_url: 'http://127.0.0.1:11434/v1', model: 'm' };

describe('tool_protocol in the model config', () => {
  it('defaults to native and accepts json', () => {
    expect(parseModelConfig(BASE).tool_protocol).toBe('native');
    expect(parseModelConfig({ ...BASE, tool_protocol: 'json' }).tool_protocol).toBe('json');
  });

  it.each([['JSON'], ['xml'], [true], [null]])('refuses %j with E_CONFIG_INVALID at tool_protocol', (value) => {
    expect(() => parseModelConfig({ ...BASE, tool_protocol: value })).toThrow(
      expect.objectContaining({
        code: 'E_CONFIG_INVALID',
        message: expect.stringContaining('At tool_protocol: expected "native"'),
      }),
    );
  });
});
