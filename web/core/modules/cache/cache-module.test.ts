import { describe, expect, it } from 'vitest';
import { HookPipeline, type HookDataMap } from '../../hooks';
import { parseCacheConfig, type CacheConfig } from './cache-config';
import { createCacheModule, promptCacheKey } from './cache-module';
import { cacheReport, MAX_RECORDS, MAX_STREAMS } from './cache-stats';
import { readInputUsage } from './provider-usage';
import { createMemoryStatsStore } from './stats-store';

const ctx = { signal: new AbortController().signal };

function setup(config: Partial<CacheConfig> = {}) {
  const cfg = { ...parseCacheConfig({}), ...config };
  const store = createMemoryStatsStore(cfg.namespace);
  let n = 0;
  const hooks = new HookPipeline();
  hooks.register(createCacheModule({ config: cfg, store, now: () => 1000 + n, newId: () => `r${++n}` }));
  const send = async (body: Record<string, unknown>, meta: Record<string, unknown> = {}, protocol = 'openai') =>
    hooks.run(
      'before_request',
      { url: 'https://api.example.com/v1/chat/completions', body, protocol, model: 'm1', request_meta: meta },
      ctx,
    );
  const answer = (prepared: HookDataMap['before_request'], usage: unknown) =>
    hooks.run('after_response', { response: { usage }, request_meta: prepared.request_meta }, ctx);
  const retry = (prepared: HookDataMap['before_request']) =>
    hooks.run('request_retry', { request_meta: prepared.request_meta, attempt: 2, reason: 'x' }, ctx);
  return { cfg, store, send, answer, retry };
}

const chatUsage = (input: number, cached: number) => ({
  prompt_tokens: input,
  completion_tokens: 5,
  prompt_tokens_details: { cached_tokens: cached },
});
const msgs = (...texts: string[]) => ({ model: 'm1', messages: texts.map((t) => ({ role: 'user', content: t })) });

describe('cache module: provider fields', () => {
  it('observe adds no field to the request', async () => {
    const { send } = setup();
    const body = msgs('a');
    const out = await send(body);
    expect(out.body).toEqual(body);
  });

  it('openai adds a stable 64-character prompt_cache_key and the retention, never overwriting fields', async () => {
    const { send } = setup({ mode: 'openai', namespace: 'work', retention: '24h' });
    const a = await send(msgs('a'));
    const b = await send(msgs('a', 'b'));
    expect(a.body.prompt_cache_key).toMatch(/^[0-9a-f]{64}$/);
    expect(b.body.prompt_cache_key).toBe(a.body.prompt_cache_key);
    expect(a.body.prompt_cache_key).toBe(promptCacheKey('work', 'm1'));
    expect(promptCacheKey('other', 'm1')).not.toBe(a.body.prompt_cache_key);
    expect(a.body.prompt_cache_retention).toBe('24h');
    const mine = await send({ ...msgs('a'), prompt_cache_key: 'mine', prompt_cache_retention: 'in_memory' });
    expect(mine.body.prompt_cache_key).toBe('mine');
    expect(mine.body.prompt_cache_retention).toBe('in_memory');
  });

  it('anthropic adds a top-level ephemeral cache_control with the ttl, never overwriting one', async () => {
    const { send } = setup({ mode: 'anthropic', ttl: '1h' });
    expect((await send(msgs('a'), {}, 'anthropic')).body.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(
      (await send({ ...msgs('a'), cache_control: { type: 'ephemeral' } }, {}, 'anthropic')).body.cache_control,
    ).toEqual({ type: 'ephemeral' });
  });

  it('enabled:false adds nothing and records nothing', async () => {
    const { send, store } = setup({ mode: 'openai', enabled: false });
    const out = await send(msgs('a'));
    expect(out.body).toEqual(msgs('a'));
    expect(out.request_meta.cache_request).toBeUndefined();
    expect((await store.read()).totals.prepared).toBe(0);
  });
});

describe('cache module: configuration', () => {
  it('refuses absolute and escaping stats paths, unknown keys and options of another mode', () => {
    expect(() => parseCacheConfig({ stats: '/tmp/x.json' })).toThrow(/absolute/);
    expect(() => parseCacheConfig({ stats: 'C:/x.json' })).toThrow(/absolute/);
    expect(() => parseCacheConfig({ stats: '../x.json' })).toThrow(/\.\./);
    expect(() => parseCacheConfig({ stats: 'metrics/../../x.json' })).toThrow(/\.\./);
    expect(() => parseCacheConfig({ target: 0.9 })).toThrow(/unknown key/);
    expect(() => parseCacheConfig({ mode: 'observe', retention: '24h' })).toThrow(/openai/);
    expect(() => parseCacheConfig({ mode: 'openai', ttl: '5m' })).toThrow(/anthropic/);
    expect(() => parseCacheConfig({ mode: 'openai', retention: '7d' })).toThrow(/in_memory/);
    expect(
      parseCacheConfig({
        mode: 'observe',
        namespace: 'my-workload',
        stats: 'metrics/cache-stats.json',
        target_hit_ratio: 0.99,
      }),
    ).toMatchObject({ enabled: true, target_hit_ratio: 0.99 });
  });
});

describe('cache module: usage per provider', () => {
  it('counts OpenAI and Responses cached tokens inside the total input', () => {
    expect(readInputUsage('openai', { usage: chatUsage(1000, 900) })).toEqual({
      input: 1000,
      cacheRead: 900,
      output: 5,
    });
    expect(
      readInputUsage('responses', {
        usage: { input_tokens: 100, output_tokens: 2, input_tokens_details: { cached_tokens: 60 } },
      }),
    ).toEqual({ input: 100, cacheRead: 60, output: 2 });
  });

  it('adds Anthropic plain, read and creation input; creation is not a hit', () => {
    expect(
      readInputUsage('anthropic', {
        usage: { input_tokens: 10, cache_read_input_tokens: 800, cache_creation_input_tokens: 190, output_tokens: 3 },
      }),
    ).toEqual({ input: 1000, cacheRead: 800, output: 3 });
  });

  it('uses DeepSeek hit/miss partition', () => {
    expect(
      readInputUsage('deepseek', {
        usage: { prompt_tokens: 100, prompt_cache_hit_tokens: 70, prompt_cache_miss_tokens: 30, completion_tokens: 1 },
      }),
    ).toEqual({ input: 100, cacheRead: 70, output: 1 });
    expect(readInputUsage('deepseek', { usage: { prompt_tokens: 100, completion_tokens: 1 } })).toBeNull();
    expect(
      readInputUsage('deepseek', {
        usage: { prompt_tokens: 99, prompt_cache_hit_tokens: 70, prompt_cache_miss_tokens: 30, completion_tokens: 1 },
      }),
    ).toBeNull();
  });

  it('treats missing, negative, fractional, inconsistent usage and unknown protocols as unknown', () => {
    expect(readInputUsage('openai', {})).toBeNull();
    expect(readInputUsage('openai', { usage: { prompt_tokens: -1, completion_tokens: 1 } })).toBeNull();
    expect(readInputUsage('openai', { usage: { prompt_tokens: 1.5, completion_tokens: 1 } })).toBeNull();
    expect(readInputUsage('openai', { usage: chatUsage(10, 11) })).toBeNull();
    expect(readInputUsage('my-worker', { usage: chatUsage(10, 1) })).toBeNull();
  });
});

describe('cache module: statistics', () => {
  it('reports Σ cache-read / Σ input and whether the target is met when every request was observed with known usage', async () => {
    const { send, answer, store, cfg } = setup();
    await answer(await send(msgs('a')), chatUsage(1000, 0));
    await answer(await send(msgs('a', 'b')), chatUsage(1000, 1000));
    const report = cacheReport(await store.read(), cfg.target_hit_ratio);
    expect(report.observed_token_hit_ratio).toBe(0.5);
    expect(report.target_met).toBe(false);
    expect(cacheReport(await store.read(), 0.5).target_met).toBe(true);
  });

  it('makes target_met null after any unknown usage', async () => {
    const { send, answer, store } = setup();
    await answer(await send(msgs('a')), chatUsage(1000, 1000));
    await answer(await send(msgs('a', 'b')), undefined);
    const report = cacheReport(await store.read(), 0.5);
    expect(report.unknown_usage).toBe(1);
    expect(report.target_met).toBeNull();
  });

  it('makes target_met null while a prepared request was never observed, and counts each retry as prepared', async () => {
    const { send, answer, store } = setup();
    await answer(await send(msgs('a')), chatUsage(1000, 1000));
    await send(msgs('a', 'b'));
    expect(cacheReport(await store.read(), 0.5).target_met).toBeNull();

    const fresh = setup();
    const p = await fresh.send(msgs('a'));
    await fresh.retry(p);
    await fresh.answer(p, chatUsage(100, 100));
    const s = await fresh.store.read();
    expect(s.totals.prepared).toBe(2);
    expect(s.records[0]!.prepared).toBe(2);
    expect(cacheReport(s, 0.5)).toMatchObject({ unobserved: 1, target_met: null, observed_token_hit_ratio: 1 });
  });

  it('classes requests as new, append, reset and compact', async () => {
    const { send, store } = setup();
    await send(msgs('sys', 'a')); // new
    await send(msgs('sys', 'a', 'b')); // append
    await send(msgs('sys', 'x')); // reset
    await send(msgs('sys', 'x', 'summarise'), { compact: true }); // compact (summary request)
    await send(msgs('sys', 'summary', 'tail')); // compact (first request after compaction)
    await send(msgs('sys', 'summary', 'tail', 'more')); // append
    await send(msgs('sys', 'a'), { session: 'other' }); // new stream
    const s = await store.read();
    expect(s.records.map((r) => r.class)).toEqual(['new', 'append', 'reset', 'compact', 'compact', 'append', 'new']);
    expect(s.totals.classes).toEqual({ new: 2, append: 2, reset: 1, compact: 2 });
  });

  it('keeps the latest 200 records and 256 streams while the cumulative counters keep counting', async () => {
    const { send, answer, store } = setup();
    for (let i = 0; i < 300; i++) await answer(await send(msgs('a'), { session: `s${i}` }), chatUsage(10, 5));
    const s = await store.read();
    expect(s.records).toHaveLength(MAX_RECORDS);
    expect(s.records[0]!.id).toBe('r101');
    expect(Object.keys(s.streams)).toHaveLength(MAX_STREAMS);
    expect(s.totals).toMatchObject({ prepared: 300, observed: 300, input_tokens: 3000, cache_read_tokens: 1500 });
  });

  it('stores no prompt text, tool bodies or credentials', async () => {
    const { send, answer, store } = setup({ mode: 'openai' });
    const body = {
      model: 'm1',
      messages: [{ role: 'user', content: 'SECRET-PROMPT-TEXT' }],
      tools: [{ type: 'function', function: { name: 'read', description: 'TOOL-BODY' } }],
    };
    const prepared = await send(body, { api_key: 'sk-should-not-be-here' });
    await answer(prepared, chatUsage(10, 0));
    const text = JSON.stringify(await store.read());
    expect(text).not.toContain('SECRET-PROMPT-TEXT');
    expect(text).not.toContain('TOOL-BODY');
    expect(text).not.toContain('sk-should');
  });
});
