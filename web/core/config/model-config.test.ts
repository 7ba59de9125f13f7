import { describe, expect, it } from 'vitest';
import { HarnessError } from '../contracts/errors';
import { checkBudgetConfig, checkResponsesHook, resolveProvider } from './config-checks';
import { parseModelConfig } from './model-config';

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (HarnessError.isInstance(e)) return { code: e.code, message: e.message, path: e.data?.path };
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('model config', () => {
  it('accepts the seed example and fills documented defaults', () => {
    const c = parseModelConfig(
      JSON.stringify({
        protocol: 'deepseek',
        base_url: 'https://api.deepseek.com/',
        model: 'deepseek-flash',
        api_key_env: 'DEEPSEEK_API_KEY',
        plugins: 'builtin.json',
        extra_body: { thinking: { type: 'enabled' } },
      }),
    );
    expect(c).toEqual({
      protocol: 'deepseek',
      base_url: 'https://api.deepseek.com',
      model: 'deepseek-flash',
      api_key_env: 'DEEPSEEK_API_KEY',
      max_tokens: 4096,
      use_max_tokens: false,
      budget: null,
      extra_body: { thinking: { type: 'enabled' } },
      plugins: 'builtin.json',
      io_limit_bytes: 1048576,
      provider: null,
      provider_operations: false,
      route: null,
      tool_protocol: 'native',
    });
  });

  it('defaults the protocol to openai', () => {
    expect(parseModelConfig({ base_url: 'http://127.0.0.1:11434/v1', model: 'qwen3' }).protocol).toBe('openai');
  });

  it.each([
    [{ base_url: 'https://a.example', model: 'm', temperature: 1 }, 'E_CONFIG_UNKNOWN_KEY', 'temperature'],
    [{ base_url: 'https://a.example', model: 'm', api_key: 'sk-x' }, 'E_CONFIG_UNKNOWN_KEY', 'api_key'],
    [
      { base_url: 'https://a.example', model: 'm', budget: { context_window: 1000, windw: 2 } },
      'E_CONFIG_UNKNOWN_KEY',
      'budget.windw',
    ],
    [{ base_url: 'ftp://a.example', model: 'm' }, 'E_CONFIG_INVALID', 'base_url'],
    [{ base_url: 'https://user:pw@a.example', model: 'm' }, 'E_CONFIG_INVALID', 'base_url'],
    [{ base_url: 'https://a.example', model: '' }, 'E_CONFIG_INVALID', 'model'],
    [{ base_url: 'https://a.example', model: 'm', api_key_env: 'sk-abc-123' }, 'E_CONFIG_INVALID', 'api_key_env'],
    // The bridge token's old name: a config naming it would send the token to its own base_url.
    [
      { base_url: 'https://evil.example/v1', model: 'm', api_key_env: 'I_BRIDGE_TOKEN' },
      'E_CONFIG_RESERVED_SECRET',
      'api_key_env',
    ],
    [{ base_url: 'https://a.example', model: 'm', max_tokens: 0 }, 'E_CONFIG_INVALID', 'max_tokens'],
    [{ base_url: 'https://a.example', model: 'm', use_max_tokens: 'yes' }, 'E_CONFIG_INVALID', 'use_max_tokens'],
    [{ base_url: 'https://a.example', model: 'm', protocol: 'My Service!' }, 'E_CONFIG_INVALID', 'protocol'],
    [
      { base_url: 'https://a.example', model: 'm', extra_body: { max_tokens: 5 } },
      'E_EXTRA_BODY_RESERVED',
      'extra_body.max_tokens',
    ],
    [
      { base_url: 'https://a.example', model: 'm', protocol: 'responses', extra_body: { store: true } },
      'E_EXTRA_BODY_RESERVED',
      'extra_body.store',
    ],
    [
      { base_url: 'https://a.example', model: 'm', extra_body: { headers: { Authorization: 'x' } } },
      'E_EXTRA_BODY_CREDENTIAL',
      'extra_body.headers.Authorization',
    ],
    [
      { base_url: 'https://a.example', model: 'm', budget: { context_window: 1000, tokenizer: 'cl100k_base' } },
      'E_CONFIG_TOKENIZER_REMOVED',
      'budget.tokenizer',
    ],
    [
      { base_url: 'https://a.example', model: 'm', provider: { exec: 'my-provider --flag' } },
      'E_CONFIG_INVALID',
      'provider.exec',
    ],
    [
      { base_url: 'https://a.example', model: 'm', io_limit_bytes: 100 * 1024 * 1024 },
      'E_CONFIG_INVALID',
      'io_limit_bytes',
    ],
  ])('refuses %j with %s at %s', (config, code, path) => {
    expect(codeOf(() => parseModelConfig(config))).toMatchObject({ code, path });
  });

  it.each([
    ['localhost:11434', 'has no http:// or https:// in front. Write "http://localhost:11434"'],
    ['127.0.0.1:8080/v1', 'Write "http://127.0.0.1:8080/v1"'],
    ['ftp://a.example', 'only http and https addresses are allowed, not "ftp:"'],
  ])('says what is wrong with base_url %s', (base_url, message) => {
    expect(() => parseModelConfig({ base_url, model: 'm' })).toThrow(message);
    expect(codeOf(() => parseModelConfig({ base_url, model: 'm' }))).toMatchObject({
      code: 'E_CONFIG_INVALID',
      path: 'base_url',
    });
  });

  it('says "plugins" is a desktop manifest, as i --help does', () => {
    expect(() => parseModelConfig({ base_url: 'https://a.example', model: 'm', plugins: 5 })).toThrow(
      'expected the path of a desktop manifest (tools, hooks, provider)',
    );
  });

  it('refuses text that is not JSON', () => {
    expect(codeOf(() => parseModelConfig('{"protocol": '))).toMatchObject({ code: 'E_CONFIG_JSON' });
  });

  it('accepts a custom protocol with an explicit binding, and the binding wins', () => {
    const c = parseModelConfig({
      protocol: 'my-service',
      base_url: 'https://service.example',
      model: 'my-model',
      provider: { exec: ['/abs/my-provider', '--config', '/abs/s.json'], cwd: '/abs' },
      extra_body: { max_tokens: 5 },
    });
    expect(resolveProvider(c)).toEqual({
      kind: 'custom',
      protocol: 'my-service',
      binding: { exec: ['/abs/my-provider', '--config', '/abs/s.json'], cwd: '/abs' },
    });
    // A custom provider enforces its own reserved fields; the core only keeps credentials out.
    expect(c.extra_body).toEqual({ max_tokens: 5 });
    expect(resolveProvider(parseModelConfig({ base_url: 'https://a.example', model: 'm' }))).toEqual({
      kind: 'builtin',
      protocol: 'openai',
    });
  });

  it('accepts a custom protocol without a binding: a provider worker of the environment serves it, never a built-in', () => {
    const c = parseModelConfig({ protocol: 'my-service', base_url: 'https://service.example', model: 'm' });
    expect(resolveProvider(c)).toEqual({ kind: 'custom', protocol: 'my-service', binding: null });
  });

  it('allows provider fields that only look token-ish, such as Anthropic budget_tokens', () => {
    const c = parseModelConfig({
      protocol: 'anthropic',
      base_url: 'https://api.anthropic.com',
      model: 'claude',
      extra_body: { thinking: { type: 'enabled', budget_tokens: 2048 } },
    });
    expect(c.extra_body).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
  });
});

describe('config checks', () => {
  const base = parseModelConfig({
    protocol: 'responses',
    base_url: 'https://api.openai.com/v1',
    model: 'o4-mini',
    max_tokens: 8000,
  });

  it('refuses protocol responses together with the old responses hook', () => {
    expect(codeOf(() => checkResponsesHook(base, ['budget', 'responses']))).toMatchObject({
      code: 'E_CONFIG_RESPONSES_HOOK',
    });
    expect(() => checkResponsesHook(base, ['budget', 'compact'])).not.toThrow();
    expect(() => checkResponsesHook({ protocol: 'openai' }, ['responses'])).not.toThrow();
  });

  it('requires budget.context_window when the budget module is on, and room for input', () => {
    expect(codeOf(() => checkBudgetConfig(base, true))).toMatchObject({
      code: 'E_CONFIG_BUDGET_WINDOW',
      path: 'budget.context_window',
    });
    expect(() => checkBudgetConfig(base, false)).not.toThrow();
    expect(() => checkBudgetConfig({ ...base, budget: { context_window: 200000 } }, true)).not.toThrow();
    expect(codeOf(() => checkBudgetConfig({ ...base, budget: { context_window: 8000 } }, true))).toMatchObject({
      path: 'max_tokens',
    });
  });
});
