import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../core/page';
import { windowPlan } from './context-window';
import { CUSTOM_PRESET, emptyForm, formFromPreset } from './provider-form';

const preset = (id: string, model: string) => ({ ...formFromPreset(findPreset(id)!), model });

describe('windowPlan: what fills the context window of the form’s model', () => {
  it("takes the preset's dated table for a model it knows", () => {
    expect(windowPlan(preset('openai', 'gpt-4.1'))).toMatchObject({ kind: 'preset', window: 1_047_576 });
    expect(windowPlan(preset('anthropic', 'claude-sonnet-4-20250514'))).toMatchObject({ window: 200_000 });
  });

  it("asks the server's list for a model the table does not know, naming Ollama and LM Studio for their own APIs", () => {
    expect(windowPlan(preset('openai', 'gpt-new'))).toEqual({ kind: 'server', server: null });
    expect(windowPlan(preset('openrouter', 'anthropic/claude-sonnet-4'))).toEqual({ kind: 'server', server: null });
    expect(windowPlan(preset('ollama', 'qwen3:8b'))).toEqual({ kind: 'server', server: 'ollama' });
    expect(windowPlan(preset('lm-studio', 'qwen2.5-7b'))).toEqual({ kind: 'server', server: 'lm-studio' });
    // A custom preset trusts no table, even for a known name: the server may serve something else under it.
    expect(windowPlan({ ...preset('openai', 'gpt-4.1'), preset: CUSTOM_PRESET })).toEqual({
      kind: 'server',
      server: null,
    });
  });

  it('waits for a model and an address, and knows nothing can answer for a custom protocol', () => {
    expect(windowPlan(emptyForm())).toEqual({ kind: 'wait' });
    expect(windowPlan({ ...preset('openai', 'm'), base_url: ' ' })).toEqual({ kind: 'wait' });
    expect(windowPlan({ ...preset('openai', 'm'), preset: CUSTOM_PRESET, protocol: 'my-service' })).toEqual({
      kind: 'none',
    });
  });
});
