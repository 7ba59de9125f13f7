import { describe, expect, it } from 'vitest';
import { HookPipeline, type BudgetSettings } from '../../hooks';
import type { Message, ToolSchema } from '../../contracts/messages';
import { parseBudgetConfig, REMOVED_TOKENIZERS, budgetTrigger } from './budget-config';
import { createBudgetModule, type BudgetEndpoint } from './budget-module';
import { estimateMessages } from './estimate';

const ctx = { signal: new AbortController().signal };
const endpoint: BudgetEndpoint = {
  protocol: 'openai',
  base_url: 'https://api.example.com/v1',
  options: { max_tokens: 100 },
};
const settings: BudgetSettings = parseBudgetConfig({ context_window: 10_000 }, 100);
const tools: ToolSchema[] = [{ name: 'read', description: 'Read a file', parameters: { type: 'object' } }];
const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

function setup(s: BudgetSettings = settings) {
  const module = createBudgetModule({ settings: s, endpoint });
  const hooks = new HookPipeline();
  hooks.register(module);
  const verdict = async (
    history: Message[],
    extra: Record<string, unknown> = {},
    model = 'm1',
    pending = 0,
    t = tools,
  ) =>
    (
      await hooks.run(
        'context_budget',
        {
          model,
          budget: s,
          history,
          tools: t,
          pending_calls: pending,
          compact: false,
          result: { fits: true, estimate: 0, trigger: 0, tool_budget: 0, method: 'none' },
          ...extra,
        },
        ctx,
      )
    ).result;
  /** One model call: before_request then after_response with `usage` (the raw Chat usage object). */
  const call = async (usage: unknown, model = 'm1', protocol = 'openai') => {
    const prepared = await hooks.run(
      'before_request',
      { url: 'https://api.example.com/v1/chat/completions', body: {}, protocol, model, request_meta: {} },
      ctx,
    );
    await hooks.run('after_response', { response: { usage }, request_meta: prepared.request_meta }, ctx);
  };
  return { module, hooks, verdict, call };
}

const sys: Message = { role: 'system', content: 'You are a test.' };
const user: Message = { role: 'user', content: 'Read a.txt' };
const answer: Message = {
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }],
};
const result: Message = { role: 'tool', tool_call_id: 'c1', content: 'hello world' };
const usage = { prompt_tokens: 50, completion_tokens: 7 };

describe('budget configuration', () => {
  it.each(REMOVED_TOKENIZERS)('refuses the removed tokenizer %s instead of falling back', (name) => {
    expect(() => parseBudgetConfig({ context_window: 1000, tokenizer: name }, 10)).toThrow(
      expect.objectContaining({ code: 'E_BUDGET_TOKENIZER_REMOVED' }),
    );
  });

  it('accepts an omitted or utf8_bytes tokenizer and refuses others, unknown keys, a missing window and a reserve >= window', () => {
    expect(parseBudgetConfig({ context_window: 1000, tokenizer: 'utf8_bytes' }, 10).context_window).toBe(1000);
    expect(() => parseBudgetConfig({ context_window: 1000, tokenizer: 'gpt2' }, 10)).toThrow(/utf8_bytes/);
    expect(() => parseBudgetConfig({ context_window: 1000, windows: 1 }, 10)).toThrow(/budget.windows/);
    expect(() => parseBudgetConfig({}, 10)).toThrow(/context_window/);
    expect(() => parseBudgetConfig({ context_window: 1000 }, 1000)).toThrow(/output reserve/);
  });

  it('defaults: output reserve = max_tokens, threshold .8, safety .02, tool ratio .02', () => {
    expect(parseBudgetConfig({ context_window: 1000 }, 64)).toEqual({
      context_window: 1000,
      max_tokens: 64,
      threshold: 0.8,
      safety: 0.02,
      tool_ratio: 0.02,
      image_tokens: 1600,
    });
    expect(parseBudgetConfig({ context_window: 1000, output_reserve: 10 }, 64).max_tokens).toBe(10);
  });

  it('triggers at min(window × .8, window − max_tokens − safety × window)', () => {
    expect(budgetTrigger(parseBudgetConfig({ context_window: 100_000 }, 4096))).toBe(80_000);
    expect(budgetTrigger(parseBudgetConfig({ context_window: 10_000 }, 4096))).toBe(5704);
  });
});

describe('budget estimate', () => {
  it('estimates the first request in UTF-8 bytes of the wire view plus tool schemas', async () => {
    const { verdict } = setup();
    const v = await verdict([sys, user]);
    expect(v).toMatchObject({
      method: 'utf8_bytes',
      estimate: bytes(sys) + bytes(user) + bytes(tools),
      trigger: 8000,
      fits: true,
    });
  });

  it('leaves out host `_` metadata but counts the replayed _anthropic_content / _responses_output', () => {
    const plain = estimateMessages([answer], 0);
    expect(estimateMessages([{ ...answer, _provider: { protocol: 'x', model: 'y' } } as Message], 0)).toBe(plain);
    expect(
      estimateMessages([{ ...answer, _anthropic_content: [{ type: 'thinking', thinking: 'abc' }] }], 0),
    ).toBeGreaterThan(plain);
    expect(estimateMessages([{ ...answer, _responses_output: [{ type: 'reasoning' }] }], 0)).toBeGreaterThan(plain);
  });

  it('plans each image at image_tokens instead of its bytes', () => {
    const img: Message = {
      role: 'user',
      content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'A'.repeat(10_000)}` } }],
    };
    const none: Message = { role: 'user', content: [{ type: 'image_url', image_url: { url: '' } }] };
    expect(estimateMessages([img], 1600)).toBe(estimateMessages([none], 0) + 1600);
  });

  it('anchors on valid usage for an unchanged prefix and adds bytes of the newer messages and tool schemas', async () => {
    const { verdict, call } = setup();
    await verdict([sys, user]);
    await call(usage);
    const v = await verdict([sys, user, answer, result]);
    expect(v).toMatchObject({ method: 'usage', estimate: 57 + bytes(result) + bytes(tools) });
  });

  it('ignores host metadata changes in the anchored prefix', async () => {
    const { verdict, call } = setup();
    await verdict([sys, user]);
    await call(usage);
    const tagged = { ...user, _meta: { note: 'host only' } } as Message;
    expect((await verdict([sys, tagged, answer, result])).method).toBe('usage');
  });

  it.each([
    ['the model changes', async (s: ReturnType<typeof setup>) => s.verdict([sys, user, answer, result], {}, 'm2')],
    [
      'an earlier message changes',
      async (s: ReturnType<typeof setup>) => s.verdict([sys, { role: 'user', content: 'Read b.txt' }, answer, result]),
    ],
    [
      'the endpoint or options change',
      async (s: ReturnType<typeof setup>) =>
        s.verdict([sys, user, answer, result], { endpoint: { ...endpoint, options: { max_tokens: 200 } } }),
    ],
    [
      'the provider worker binding changes',
      async (s: ReturnType<typeof setup>) =>
        s.verdict([sys, user, answer, result], { endpoint: { ...endpoint, binding: { worker: 'other-provider' } } }),
    ],
  ])('falls back to bytes when %s', async (_name, run) => {
    const s = setup();
    await s.verdict([sys, user]);
    await s.call(usage);
    const v = await run(s);
    expect(v.method).toBe('utf8_bytes');
  });

  it('falls back to bytes when replayed reasoning (_anthropic_content) in the prefix changes', async () => {
    const s = setup();
    const reasoned: Message = { ...answer, _anthropic_content: [{ type: 'thinking', thinking: 'a', signature: 's1' }] };
    const next: Message = { role: 'assistant', content: 'done' };
    await s.verdict([sys, user, reasoned, result]);
    await s.call(usage);
    expect((await s.verdict([sys, user, reasoned, result, next, user])).method).toBe('usage');
    const changed: Message = { ...answer, _anthropic_content: [{ type: 'thinking', thinking: 'a', signature: 's2' }] };
    expect((await s.verdict([sys, user, changed, result, next, user])).method).toBe('utf8_bytes');
  });

  it.each([
    ['missing', undefined],
    ['incomplete', { prompt_tokens: 50 }],
    ['negative', { prompt_tokens: -5, completion_tokens: 7 }],
    ['fractional', { prompt_tokens: 5.5, completion_tokens: 7 }],
    ['overflowing the window', { prompt_tokens: 9_999, completion_tokens: 7 }],
  ])('does not anchor on %s usage (never counts unknown as 0)', async (_name, u) => {
    const s = setup();
    await s.verdict([sys, user]);
    await s.call(u);
    const v = await s.verdict([sys, user, answer, result]);
    expect(v.method).toBe('utf8_bytes');
    expect(v.estimate).toBe(bytes(sys) + bytes(user) + estimateMessages([answer], 0) + bytes(result) + bytes(tools));
  });

  it('does not count unused tool schemas for a summary request', async () => {
    const { verdict } = setup();
    const withTools = await verdict([sys, user]);
    const compact = await verdict([sys, user], { compact: true });
    expect(withTools.estimate - compact.estimate).toBe(bytes(tools));
  });

  it('splits the tool share (window × tool ratio, capped by what is left) over the pending calls', async () => {
    const { verdict } = setup();
    expect((await verdict([sys, user], {}, 'm1', 1)).tool_budget).toBe(200);
    expect((await verdict([sys, user], {}, 'm1', 4)).tool_budget).toBe(50);
    const tight = setup(parseBudgetConfig({ context_window: 2000, tool_output_ratio: 1 }, 100));
    const v = await tight.verdict([sys, user], {}, 'm1', 2);
    expect(v.tool_budget).toBe(Math.floor((v.trigger - v.estimate) / 2));
  });
});

describe('budget blocks the model request', () => {
  const big: Message = { role: 'user', content: 'x'.repeat(9000) };

  it('refuses the HTTP request of a step whose verdict did not fit', async () => {
    const { verdict, hooks } = setup();
    expect((await verdict([sys, big])).fits).toBe(false);
    await expect(
      hooks.run(
        'before_request',
        { url: 'https://api.example.com/v1/x', body: {}, protocol: 'openai', model: 'm1', request_meta: {} },
        ctx,
      ),
    ).rejects.toThrow(/exceeds the context budget/);
  });

  it('lets the request through once compaction ran (the loop re-checks the compacted history)', async () => {
    const { verdict, hooks } = setup();
    await verdict([sys, big]);
    await hooks.run(
      'compact_plan',
      { budget: { fits: false, estimate: 1, trigger: 1, tool_budget: 0, method: 'x' }, history: [sys, big], cut: null },
      ctx,
    );
    const out = await hooks.run(
      'before_request',
      { url: 'https://api.example.com/v1/x', body: {}, protocol: 'openai', model: 'm1', request_meta: {} },
      ctx,
    );
    expect(out.request_meta.budget_request).toBeUndefined();
  });
});
