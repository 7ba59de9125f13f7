import { describe, expect, it } from 'vitest';
import { parseModelConfig } from './model-config';
import { resolveAppPaths } from './paths';
import { headlessErrorData } from './run';

describe('app directories', () => {
  it('defaults to ~/.i/{config,data,cache,runtime} and takes absolute I_*_DIR overrides', () => {
    expect(resolveAppPaths({ HOME: '/home/a' })).toEqual({
      config_dir: '/home/a/.i/config',
      data_dir: '/home/a/.i/data',
      cache_dir: '/home/a/.i/cache',
      runtime_dir: '/home/a/.i/runtime',
    });
    expect(resolveAppPaths({ HOME: '/home/a', I_DATA_DIR: '/srv/i-data', I_RUNTIME_DIR: '/run/i' })).toMatchObject({
      data_dir: '/srv/i-data',
      runtime_dir: '/run/i',
      config_dir: '/home/a/.i/config',
    });
    expect(resolveAppPaths({ USERPROFILE: 'C:\\Users\\a' }, 'win32').config_dir).toContain('.i');
  });

  it('refuses relative or ".." overrides, and config/data inside cache/runtime', () => {
    expect(() => resolveAppPaths({ HOME: '/h', I_CONFIG_DIR: 'rel/conf' })).toThrow(
      /I_CONFIG_DIR must be an absolute path/,
    );
    expect(() => resolveAppPaths({ HOME: '/h', I_CACHE_DIR: '/a/../b' })).toThrow(/I_CACHE_DIR/);
    expect(() => resolveAppPaths({ HOME: '/h', I_CACHE_DIR: '/x', I_DATA_DIR: '/x/data' })).toThrow(
      /data_dir .* must not be inside cache_dir/,
    );
    expect(() => resolveAppPaths({})).toThrow(/HOME/);
  });
});

describe('model config (through web/core/config)', () => {
  it('fills documented defaults and the seed 000 §7 budget defaults', () => {
    const { config, budget } = parseModelConfig(
      { base_url: 'http://127.0.0.1:11434/v1/', model: 'llama', budget: { context_window: 32000 } },
      'c.json',
    );
    expect(config).toMatchObject({
      protocol: 'openai',
      base_url: 'http://127.0.0.1:11434/v1',
      api_key_env: null,
      max_tokens: 4096,
      use_max_tokens: false,
      extra_body: {},
      provider_operations: false,
    });
    expect(budget).toEqual({
      context_window: 32000,
      max_tokens: 4096,
      safety: 0.02,
      tool_ratio: 0.02,
      threshold: 0.8,
      image_tokens: 1600,
    });
    expect(parseModelConfig({ base_url: 'http://h/v1', model: 'm' }, 'c.json').budget).toBeNull();
  });

  it('maps the budget fields and names the file and the path in errors', () => {
    const { budget } = parseModelConfig(
      {
        base_url: 'http://h/v1',
        model: 'm',
        max_tokens: 500,
        budget: {
          context_window: 8000,
          output_reserve: 1000,
          threshold: 0.7,
          safety_ratio: 0.05,
          tool_output_ratio: 0.1,
          image_tokens: 10,
        },
      },
      'c.json',
    );
    expect(budget).toEqual({
      context_window: 8000,
      max_tokens: 1000,
      threshold: 0.7,
      safety: 0.05,
      tool_ratio: 0.1,
      image_tokens: 10,
    });
    expect(() => parseModelConfig({ base_url: 'http://h/v1', model: 'm', temperature: 1 }, 'c.json')).toThrow(
      /c\.json.*At temperature: unknown key/,
    );
    expect(() =>
      parseModelConfig(
        { base_url: 'http://h/v1', model: 'm', budget: { context_window: 1000, tokenizer: 'o200k_base' } },
        'c.json',
      ),
    ).toThrow(/budget\.tokenizer/);
    expect(() =>
      parseModelConfig(
        { base_url: 'http://h/v1', model: 'm', budget: { context_window: 1000, output_reserve: 1000 } },
        'c.json',
      ),
    ).toThrow(/output reserve/);
  });
});

describe('model config file root', () => {
  it('refuses a JSON string at the root instead of parsing it a second time', () => {
    const inner = JSON.stringify({ base_url: 'http://h/v1', model: 'm' });
    expect(() => parseModelConfig(inner, 'c.json')).toThrow(/c\.json is invalid\. At \(root\): expected a JSON object/);
    expect(() => parseModelConfig([inner], 'c.json')).toThrow(/At \(root\)/);
  });
});

describe('headless error sentences', () => {
  const config = { base_url: 'http://h/v1', api_key_env: null, budget: { context_window: 500 } };
  it('names the headless setting for the step limit and the context budget', () => {
    expect(
      headlessErrorData(
        { code: 'E_STEP_LIMIT', message: 'The turn stopped after 2 model calls without finishing.' },
        config,
        'c.json',
      ).message,
    ).toBe(
      'The turn stopped after 2 model calls without finishing. Here the limit is --max-steps N (1-1000, default 50).',
    );
    expect(headlessErrorData({ code: 'E_CONTEXT_BUDGET', message: 'Too long.' }, config, 'c.json').message).toBe(
      "Too long. If the model's window is larger, raise budget.context_window (now 500) in c.json.",
    );
    expect(headlessErrorData({ code: 'E_PROVIDER_HTTP', message: 'same' }, config, 'c.json')).toEqual({
      code: 'E_PROVIDER_HTTP',
      message: 'same',
    });
  });
});
