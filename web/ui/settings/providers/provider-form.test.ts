import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../core/page';
import {
  configFromForm,
  emptyForm,
  formFromConfig,
  formFromPreset,
  parseExtraBody,
  suggestKeyName,
} from './provider-form';

describe('the Model tab form', () => {
  it('turns a preset plus a model name into a valid config that round-trips through the form', () => {
    const form = { ...formFromPreset(findPreset('anthropic')!), model: 'claude-sonnet-4-5', context_window: '200000' };
    const config = configFromForm(form);
    expect(config).toEqual({
      protocol: 'anthropic',
      base_url: 'https://api.anthropic.com',
      model: 'claude-sonnet-4-5',
      api_key_env: 'ANTHROPIC_API_KEY',
      max_tokens: 4096,
      use_max_tokens: false,
      budget: { context_window: 200000 },
      route: 'direct',
    });
    expect(formFromConfig(config, 'anthropic')).toMatchObject({
      preset: 'anthropic',
      model: 'claude-sonnet-4-5',
      context_window: '200000',
      extra_body: '{}',
    });
  });

  it('names the field in every refusal: bad JSON, a non-object, a reserved extra_body field, a text number, a budget without window', () => {
    expect(() => parseExtraBody('{"temperature": }')).toThrow(/At extra_body: not valid JSON/);
    expect(() => parseExtraBody('[1]')).toThrow(/expected a JSON object/);
    const base = { ...emptyForm(), model: 'gpt-4.1' };
    expect(() => configFromForm({ ...base, extra_body: '{"stream": false}' })).toThrow(/extra_body/);
    expect(() => configFromForm({ ...base, extra_body: '{"api_key": "x"}' })).toThrow(/extra_body/);
    expect(() => configFromForm({ ...base, max_tokens: 'lots' })).toThrow(/At max_tokens/);
    expect(() => configFromForm({ ...base, threshold: '0.7' })).toThrow(/At budget.context_window/);
    expect(() => configFromForm({ ...base, model: '' })).toThrow(/At model/);
  });

  it('keeps a local preset without a key and with its bridge route', () => {
    const config = configFromForm({ ...formFromPreset(findPreset('ollama')!), model: 'qwen3' });
    expect(config.api_key_env).toBeUndefined();
    expect(config.route).toBe('bridge');
    expect(config.use_max_tokens).toBe(true);
  });

  it('accepts a custom protocol string (served by the paired bridge provider) and keeps it through the form', () => {
    const config = configFromForm({
      ...emptyForm(),
      protocol: 'my-service',
      base_url: 'https://svc.example',
      model: 'm1',
    });
    expect(config.protocol).toBe('my-service');
    expect(formFromConfig(config, null)).toMatchObject({ preset: 'custom', protocol: 'my-service' });
    expect(() => configFromForm({ ...emptyForm(), protocol: '', model: 'm1' })).toThrow(/At protocol/);
  });
});

describe('suggestKeyName: the name a typed key is stored under when none was given', () => {
  it("takes the preset's name, else one from the server's host", () => {
    expect(suggestKeyName({ preset: 'deepseek', base_url: 'https://x.example' })).toBe('DEEPSEEK_API_KEY');
    expect(suggestKeyName({ preset: 'custom', base_url: 'https://api.together.xyz/v1' })).toBe('TOGETHER_API_KEY');
    expect(suggestKeyName({ preset: 'custom', base_url: 'https://my-llm.corp.example.com/v1' })).toBe(
      'EXAMPLE_API_KEY',
    );
    expect(suggestKeyName({ preset: 'custom', base_url: 'http://127.0.0.1:8000/v1' })).toBe('LOCAL_API_KEY');
    expect(suggestKeyName({ preset: 'ollama', base_url: 'http://localhost:11434/v1' })).toBe('LOCAL_API_KEY');
    expect(suggestKeyName({ preset: 'custom', base_url: 'not a url' })).toBe('API_KEY');
    // A name must start with a letter: a host that does not gives the plain name.
    expect(suggestKeyName({ preset: 'custom', base_url: 'https://1password.example/v1' })).toBe('API_KEY');
  });
});
