// The model config for protocol "browser": no address, no key, tools only through the JSON action protocol.
import { describe, expect, it } from 'vitest';
import { parseModelConfig } from '../config/model-config';

describe('a model config with protocol "browser"', () => {
  it('needs only the stored model name and always uses JSON actions', () => {
    const c = parseModelConfig({
      protocol: 'browser',
      model: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
      budget: { context_window: 4096 },
    });
    expect(c).toMatchObject({
      protocol: 'browser',
      base_url: 'browser:local',
      api_key_env: null,
      tool_protocol: 'json',
    });
    // Saved again from the Settings form, which shows the address it read.
    expect(parseModelConfig({ protocol: 'browser', base_url: 'browser:local', model: 'm.gguf' }).base_url).toBe(
      'browser:local',
    );
  });

  it('refuses native tool calling and an API key, naming the field', () => {
    expect(() => parseModelConfig({ protocol: 'browser', model: 'm.gguf', tool_protocol: 'native' })).toThrow(
      /tool_protocol.*no native tool calling/,
    );
    expect(() => parseModelConfig({ protocol: 'browser', model: 'm.gguf', api_key_env: 'OPENAI_API_KEY' })).toThrow(
      /api_key_env.*needs no key/,
    );
  });

  it('still requires an address for every other protocol', () => {
    expect(() => parseModelConfig({ protocol: 'openai', model: 'gpt' })).toThrow(/base_url/);
  });
});
