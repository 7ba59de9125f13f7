// The Model tab's tool-protocol switch ⇄ the config's `tool_protocol`: json is stored and read back, native (the
// default) is not stored, and choosing another preset keeps the switch.
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../core/page';
import { configFromForm, emptyForm, formFromConfig, formFromPreset } from './provider-form';

describe('the Model tab tool-protocol switch', () => {
  it('stores json, reads it back, and stores nothing for native', () => {
    const base = { ...emptyForm(), model: 'qwen3' };
    expect(base.tool_protocol).toBe('native');
    expect(configFromForm(base)).not.toHaveProperty('tool_protocol');
    const config = configFromForm({ ...base, tool_protocol: 'json' });
    expect(config.tool_protocol).toBe('json');
    expect(formFromConfig(config, null).tool_protocol).toBe('json');
    expect(formFromConfig(configFromForm(base), null).tool_protocol).toBe('native');
  });

  it('keeps the switch when another preset is chosen', () => {
    const form = { ...emptyForm(), tool_protocol: 'json' as const };
    expect(formFromPreset(findPreset('ollama')!, form).tool_protocol).toBe('json');
  });
});
