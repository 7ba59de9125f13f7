// Seed 003: a usage anchor is bound to the endpoint, the provider selector or worker binding and the request
// options; the same model behind another provider worker counts differently, so its anchor is not reused.
import { describe, expect, it } from 'vitest';
import { modelSettingsOf } from '../app-agent/create-app-agent';
import { parseModelConfig } from '../config';
import { HookPipeline } from '../hooks';
import { DEFAULT_SELECTION } from '../modules/profiles';
import type { Message } from '../contracts/messages';
import { DEFAULT_BUDGET } from './budget';
import { budgetEndpointOf, profileHooks } from './profile-hooks';
import type { ModelSettings } from './types';

const ctx = { signal: new AbortController().signal };
const model: ModelSettings = {
  protocol: 'openai',
  base_url: 'https://llm.example/v1',
  model: 'm',
  max_tokens: 100,
  use_max_tokens: false,
  extra_body: {},
  budget: { ...DEFAULT_BUDGET, context_window: 10_000, max_tokens: 100 },
  provider: { worker: 'provider-a' },
};
const user: Message = { role: 'user', content: 'hi' };
const answer: Message = { role: 'assistant', content: 'hello' };
const next: Message = { role: 'user', content: 'and now?' };

/** A budget profile whose module anchored on the usage of one answered request. */
async function anchored() {
  const profile = profileHooks({ selection: DEFAULT_SELECTION, bindings: {}, model });
  const hooks = new HookPipeline();
  for (const h of profile.handlers) hooks.register(h);
  const none = { fits: true, estimate: 0, trigger: 0, tool_budget: 0, method: 'none' };
  await hooks.run(
    'context_budget',
    { model: 'm', budget: model.budget, history: [user], tools: [], pending_calls: 0, compact: false, result: none },
    ctx,
  );
  const sent = await hooks.run(
    'before_request',
    { url: 'https://llm.example/v1/x', body: {}, protocol: 'openai', model: 'm', request_meta: {} },
    ctx,
  );
  await hooks.run(
    'after_response',
    { response: { usage: { prompt_tokens: 40, completion_tokens: 5 } }, request_meta: sent.request_meta },
    ctx,
  );
  return profile.budget!;
}

describe('usage anchor and the provider worker binding', () => {
  it('reuses the anchor under the same binding', async () => {
    const budget = await anchored();
    expect(
      budget.estimate({ model: 'm', history: [user, answer, next], tools: [], pendingCalls: 0, compact: false }).method,
    ).toBe('usage');
    expect(
      budget.estimate({
        model: 'm',
        history: [user, answer, next],
        tools: [],
        pendingCalls: 0,
        compact: false,
        endpoint: budgetEndpointOf(model),
      }).method,
    ).toBe('usage');
  });

  it('drops the anchor when only the binding changed (same selector, address and model)', async () => {
    const budget = await anchored();
    const other = budgetEndpointOf({ ...model, provider: { worker: 'provider-b' } });
    expect(
      budget.estimate({
        model: 'm',
        history: [user, answer, next],
        tools: [],
        pendingCalls: 0,
        compact: false,
        endpoint: other,
      }).method,
    ).toBe('utf8_bytes');
    const unbound = budgetEndpointOf({ ...model, provider: null });
    expect(
      budget.estimate({
        model: 'm',
        history: [user, answer, next],
        tools: [],
        pendingCalls: 0,
        compact: false,
        endpoint: unbound,
      }).method,
    ).toBe('utf8_bytes');
  });
});

describe('the binding reaches the budget module from a model config', () => {
  it("is part of the app's model settings, so a changed binding is a new profile (the profile cache key) with no anchor", () => {
    const config = parseModelConfig({
      protocol: 'openai',
      base_url: 'https://llm.example/v1',
      model: 'm',
      budget: { context_window: 10_000 },
      provider: { worker: 'provider-a' },
    });
    expect(modelSettingsOf(config).provider).toEqual({ worker: 'provider-a' });
    expect(budgetEndpointOf(modelSettingsOf(config)).binding).toEqual({ worker: 'provider-a' });
    expect(JSON.stringify(modelSettingsOf(config))).not.toBe(
      JSON.stringify(modelSettingsOf({ ...config, provider: { worker: 'provider-b' } })),
    );
  });
});
