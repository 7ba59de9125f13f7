import { describe, expect, it } from 'vitest';
import { parseModelConfig } from './model-config';
import { resolveAppPaths } from './paths';

describe('app directories', () => {
  it('defaults to ~/.i/{config,data,cache,runtime} and takes absolute I_*_DIR overrides', () => {
    expect(resolveAppPaths({ HOME: '/home/a' })).toEqual({ config_dir: '/home/a/.i/config', data_dir: '/home/a/.i/data', cache_dir: '/home/a/.i/cache', runtime_dir: '/home/a/.i/runtime' });
    expect(resolveAppPaths({ HOME: '/home/a', I_DATA_DIR: '/srv/i-data', I_RUNTIME_DIR: '/run/i' })).toMatchObject({ data_dir: '/srv/i-data', runtime_dir: '/run/i', config_dir: '/home/a/.i/config' });
    expect(resolveAppPaths({ USERPROFILE: 'C:\\Users\\a' }, 'win32').config_dir).toContain('.i');
  });

  it('refuses relative or ".." overrides, and config/data inside cache/runtime', () => {
    expect(() => resolveAppPaths({ HOME: '/h', I_CONFIG_DIR: 'rel/conf' })).toThrow(/I_CONFIG_DIR must be an absolute path/);
    expect(() => resolveAppPaths({ HOME: '/h', I_CACHE_DIR: '/a/../b' })).toThrow(/I_CACHE_DIR/);
    expect(() => resolveAppPaths({ HOME: '/h', I_CACHE_DIR: '/x', I_DATA_DIR: '/x/data' })).toThrow(/data_dir .* must not be inside cache_dir/);
    expect(() => resolveAppPaths({})).toThrow(/HOME/);
  });
});

describe('model config', () => {
  it('fills documented defaults and the seed 000 §7 budget defaults', () => {
    const c = parseModelConfig({ base_url: 'http://127.0.0.1:11434/v1/', model: 'llama', budget: { context_window: 32000 } }, 'c.json');
    expect(c).toMatchObject({ protocol: 'openai', base_url: 'http://127.0.0.1:11434/v1', api_key_env: null, max_tokens: 4096, use_max_tokens: false, extra_body: {}, provider_operations: false });
    expect(c.budget).toEqual({ context_window: 32000, max_tokens: 4096, safety: 0.02, tool_ratio: 0.02, threshold: 0.8, image_tokens: 1600 });
  });

  it('accepts every seed field and refuses unknown keys with their path', () => {
    const all = {
      protocol: 'deepseek', base_url: 'https://api.deepseek.com', model: 'deepseek-chat', api_key_env: 'DEEPSEEK_API_KEY', max_tokens: 1000, use_max_tokens: true,
      budget: { context_window: 64000, max_tokens: 1000, safety: 0.05, tool_ratio: 0.1, threshold: 0.7, image_tokens: 1000, tokenizer: 'utf8_bytes' },
      extra_body: { thinking: { type: 'enabled' } }, plugins: 'builtin.json', io_limit_bytes: 65536, provider: { exec: ['/bin/p'], cwd: '/c' }, provider_operations: true,
    };
    expect(parseModelConfig(all, 'c.json').budget?.threshold).toBe(0.7);
    expect(() => parseModelConfig({ ...all, temperature: 1 }, 'c.json')).toThrow(/temperature/);
    expect(() => parseModelConfig({ ...all, budget: { context_window: 10, window: 5 } }, 'c.json')).toThrow(/At config\.budget/);
    expect(() => parseModelConfig({ ...all, budget: { context_window: 1000, tokenizer: 'o200k_base' } }, 'c.json')).toThrow(/tokenizer/);
    expect(() => parseModelConfig({ model: 'm' }, 'c.json')).toThrow(/base_url/);
    expect(() => parseModelConfig({ ...all, api_key_env: 'sk-live-abc-123' }, 'c.json')).toThrow(/api_key_env/);
  });
});
