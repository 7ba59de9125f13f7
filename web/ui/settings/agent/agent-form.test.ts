import { describe, expect, it } from 'vitest';
import { checkAgentModules, DEFAULT_AGENT_MODULES } from '../../../core/page';
import { formFromModules, modulesFromForm } from './agent-form';

describe('the Settings → Agent form', () => {
  it('round-trips the stored settings, with cache "off" as enabled false and an empty prompt as the built-in one', () => {
    const form = formFromModules(DEFAULT_AGENT_MODULES);
    expect(form).toMatchObject({
      profile: 'standard',
      disabled: [],
      compactEnabled: true,
      keepRecent: '4',
      images: 'keep',
      cache: 'observe',
      prompt: '',
    });
    const stored = modulesFromForm({
      ...form,
      disabled: ['memory'],
      cache: 'off',
      keepRecent: '9',
      prompt: 'Hi {{workspace}}',
    });
    const checked = checkAgentModules(stored);
    expect(checked).toMatchObject({
      selection: { disabled: ['memory'] },
      compact: { keep_recent: 9 },
      cache: { enabled: false },
      systemPrompt: 'Hi {{workspace}}',
    });
    expect(formFromModules(checked)).toMatchObject({
      cache: 'off',
      disabled: ['memory'],
      keepRecent: '9',
      prompt: 'Hi {{workspace}}',
    });
    expect('system_prompt' in modulesFromForm(form)).toBe(false);
  });

  it('leaves a bad number as typed so the parser refuses it, and drops a retention that no longer fits the mode', () => {
    const form = formFromModules(checkAgentModules({ cache: { mode: 'openai', retention: '24h' } }));
    expect(() => checkAgentModules(modulesFromForm({ ...form, keepRecent: 'four' }))).toThrow(/keep_recent/);
    expect(checkAgentModules(modulesFromForm(form)).cache).toMatchObject({ mode: 'openai', retention: '24h' });
    expect(checkAgentModules(modulesFromForm({ ...form, cache: 'anthropic' })).cache).not.toHaveProperty('retention');
  });

  it('carries deny_tools, the compaction prompt, web_search and the cache namespace and target to the stored object and back', () => {
    const form = formFromModules(DEFAULT_AGENT_MODULES);
    expect(form).toMatchObject({
      denyTools: '',
      compactPrompt: '',
      webSearch: '',
      cacheNamespace: 'default',
      targetHitRatio: '0.99',
    });
    const search = {
      url: 'https://search.example/q',
      method: 'POST',
      params: { q: '{query}' },
      results: { items: 'r', title: 't', url: 'u' },
    };
    const stored = modulesFromForm({
      ...form,
      denyTools: 'write,  web_fetch\nedit',
      compactPrompt: 'Short summary.',
      webSearch: JSON.stringify(search),
      cacheNamespace: ' work ',
      targetHitRatio: '0.5',
    });
    const checked = checkAgentModules(stored);
    expect(checked).toMatchObject({
      denyTools: ['write', 'web_fetch', 'edit'],
      compactPrompt: 'Short summary.',
      webSearch: { method: 'POST', url: 'https://search.example/q' },
      cache: { namespace: 'work', target_hit_ratio: 0.5 },
    });
    expect(formFromModules(checked)).toMatchObject({
      denyTools: 'write, web_fetch, edit',
      compactPrompt: 'Short summary.',
      cacheNamespace: 'work',
      targetHitRatio: '0.5',
    });
    expect(() => modulesFromForm({ ...form, webSearch: '{"url": ' })).toThrow(/agent\.web_search: not valid JSON/);
    expect(() => checkAgentModules(modulesFromForm({ ...form, targetHitRatio: 'lots' }))).toThrow(/target_hit_ratio/);
  });

  it('stores ticked "Run on the paired i-bridge" features as bindings and reads them back', () => {
    const form = formFromModules(DEFAULT_AGENT_MODULES);
    expect(form.bound).toEqual([]);
    const checked = checkAgentModules(modulesFromForm({ ...form, bound: ['memory', 'compact'] }));
    expect(checked.bindings).toEqual({ memory: { worker: 'bridge' }, compact: { worker: 'bridge' } });
    expect(formFromModules(checked).bound).toEqual(['memory', 'compact']);
    expect('bindings' in modulesFromForm(form)).toBe(false);
  });
});
