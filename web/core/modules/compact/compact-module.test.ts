import { describe, expect, it } from 'vitest';
import { runScripted } from '../../agent/__fixtures__/harness';
import { HookPipeline, type BudgetEstimate } from '../../hooks';
import type { Message } from '../../contracts/messages';
import { createBudgetModule, parseBudgetConfig } from '../budget';
import { knownContext, snapshotMessage } from '../context';
import { parseCompactConfig } from './compact-config';
import { createCompactModule, type CompactState } from './compact-module';
import { DEFAULT_COMPACT_PROMPT } from './default-prompt';
import { planCut } from './plan-cut';

const ctx = { signal: new AbortController().signal };
const over: BudgetEstimate = { fits: false, estimate: 9000, trigger: 8000, tool_budget: 0, method: 'utf8_bytes' };
const sys: Message = { role: 'system', content: 's' };
const u = (t: string): Message => ({ role: 'user', content: t });
const a = (t: string): Message => ({ role: 'assistant', content: t });
const callMsg = (id: string): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{}' } }],
});
const tool = (id: string): Message => ({ role: 'tool', tool_call_id: id, content: 'out' });

describe('compaction cut', () => {
  it('keeps at least the last 4 messages and the system prompt', () => {
    expect(planCut([sys, u('1'), a('2'), u('3'), a('4'), u('5'), a('6')], 4)).toBe(3);
  });

  it('moves the cut earlier instead of separating a tool-call batch from its results and images', () => {
    const h = [
      sys,
      u('1'),
      a('2'),
      callMsg('c1'),
      tool('c1'),
      { role: 'user', content: 'img', _meta: { kind: 'tool_images', tool_call_id: 'c1' } } as Message,
      u('x'),
      a('y'),
    ];
    // The last 4 would start at the tool result (index 4): the batch from index 3 is kept whole.
    expect(planCut(h, 4)).toBe(3);
    expect(planCut([sys, u('1'), callMsg('c1'), tool('c1'), tool('c1'), a('x')], 3)).toBe(2);
  });

  it('never cuts into the fixed head (system prompt, AGENTS.md instructions)', () => {
    const agents: Message = { role: 'user', content: 'AGENTS.md', _meta: { kind: 'project_instructions' } };
    expect(planCut([sys, agents, u('1'), a('2'), u('3'), a('4'), u('5')], 4)).toBe(3);
    expect(planCut([sys, agents, u('1'), a('2'), u('3'), a('4')], 4)).toBeNull();
  });

  it('returns null when no safe old prefix exists', () => {
    expect(planCut([sys, u('1'), a('2'), u('3'), a('4')], 4)).toBeNull();
    expect(planCut([sys, callMsg('c1'), tool('c1'), tool('c1'), tool('c1'), u('x')], 4)).toBeNull();
    expect(
      planCut(
        [sys, { role: 'user', content: 'old', _meta: { kind: 'compaction_summary' } }, u('1'), a('2'), u('3'), a('4')],
        4,
      ),
    ).toBeNull();
  });
});

describe('the default summary prompt', () => {
  it('asks for the sections that must survive a cut, and treats quoted tool output as data', () => {
    for (const heading of [
      'Goal:',
      'Decisions:',
      'Files touched:',
      'Commands run:',
      'Numbers measured:',
      'Open questions:',
      'Next step:',
    ])
      expect(DEFAULT_COMPACT_PROMPT).toContain(heading);
    expect(DEFAULT_COMPACT_PROMPT).toMatch(/path/);
    expect(DEFAULT_COMPACT_PROMPT).toMatch(/untrusted data/);
  });
  it('plans a manual compaction although the budget fits, and counts the focus line in the request check', async () => {
    const hooks = pipeline({ budget: parseBudgetConfig({ context_window: 4000 }, 100) });
    const history = [sys, u('x'.repeat(1500)), a('noted'), u('q'), a('r'), u('s'), a('t')];
    const fits = { ...over, fits: true };
    expect((await hooks.run('compact_plan', { budget: fits, history, cut: null }, ctx)).cut).toBeNull();
    const plan = await hooks.run('compact_plan', { budget: fits, history, cut: null, manual: true }, ctx);
    expect(plan.cut).toBe(3);
    const data = { messages: history.slice(1, 3), cut: 3, state: plan.state, model: 'm', policy: { manual: true } };
    await expect(hooks.run('before_compact', data, ctx)).resolves.toMatchObject({ prompt: DEFAULT_COMPACT_PROMPT });
    // The same request with a long focus no longer fits the window's trigger.
    await expect(
      hooks.run('before_compact', { ...data, policy: { manual: true, focus: 'f'.repeat(900) } }, ctx),
    ).rejects.toThrow(/summary request itself/);
  });
});

describe('compact.json', () => {
  it('accepts the seed example and refuses unknown keys and values', () => {
    expect(
      parseCompactConfig({ enabled: true, keep_recent: 4, images: 'keep', prompt: 'prompts/compact.txt' }),
    ).toEqual({ enabled: true, keep_recent: 4, images: 'keep', prompt: 'prompts/compact.txt' });
    expect(() => parseCompactConfig({ keep: 4 })).toThrow(/compact.json.keep/);
    expect(() => parseCompactConfig({ images: 'blur' })).toThrow(/keep.*drop/);
    expect(() => parseCompactConfig({ keep_recent: 0 })).toThrow(/keep_recent/);
  });
});

function pipeline(options: Partial<Parameters<typeof createCompactModule>[0]> = {}) {
  const hooks = new HookPipeline();
  hooks.register(createCompactModule({ config: parseCompactConfig({}), ...options }));
  return hooks;
}

describe('compaction hooks', () => {
  const history = [sys, u('x'.repeat(2000)), a('noted'), u('q'), a('r'), u('next')];

  it('plans a cut only when the budget does not fit', async () => {
    const hooks = pipeline();
    expect((await hooks.run('compact_plan', { budget: over, history, cut: null }, ctx)).cut).toBe(2);
    expect(
      (await hooks.run('compact_plan', { budget: { ...over, fits: true }, history, cut: null }, ctx)).cut,
    ).toBeNull();
    expect(
      (
        await pipeline({ config: parseCompactConfig({ enabled: false }) }).run(
          'compact_plan',
          { budget: over, history, cut: null },
          ctx,
        )
      ).cut,
    ).toBeNull();
  });

  it('builds the summary prompt (default or replacement) and drops images when configured', async () => {
    const img: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'see' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    };
    const h = [sys, img, ...history.slice(1)];
    for (const [config, promptText, expected] of [
      [parseCompactConfig({}), undefined, DEFAULT_COMPACT_PROMPT],
      [parseCompactConfig({ images: 'drop' }), 'Summarise briefly.', 'Summarise briefly.'],
    ] as const) {
      const hooks = pipeline({ config, ...(promptText ? { promptText } : {}) });
      const plan = await hooks.run('compact_plan', { budget: over, history: h, cut: null }, ctx);
      const before = await hooks.run(
        'before_compact',
        { messages: h.slice(1, plan.cut!), cut: plan.cut!, state: plan.state, model: 'm', policy: {} },
        ctx,
      );
      expect(before.prompt).toBe(expected);
      const parts = before.messages[0]!.content as Array<{ type: string }>;
      expect(parts[1]!.type).toBe(config.images === 'drop' ? 'text' : 'image_url');
    }
  });

  it('refuses a summary request that would not fit the budget itself', async () => {
    const budget = parseBudgetConfig({ context_window: 1000 }, 100);
    const hooks = pipeline({ budget });
    const big = [sys, u('x'.repeat(5000)), a('noted'), u('q'), a('r'), u('next')];
    const plan = await hooks.run('compact_plan', { budget: over, history: big, cut: null }, ctx);
    await expect(
      hooks.run(
        'before_compact',
        { messages: big.slice(1, 2), cut: 2, state: plan.state, model: 'm', policy: {} },
        ctx,
      ),
    ).rejects.toThrow(/summary request itself/);
  });

  it('fails an empty summary or one not smaller than what it replaces', async () => {
    const hooks = pipeline();
    const plan = await hooks.run('compact_plan', { budget: over, history, cut: null }, ctx);
    await expect(hooks.run('after_compact', { summary: '  ', state: plan.state }, ctx)).rejects.toThrow(/empty/);
    await expect(hooks.run('after_compact', { summary: 'z'.repeat(3000), state: plan.state }, ctx)).rejects.toThrow(
      /not smaller/,
    );
    expect((await hooks.run('after_compact', { summary: 'short', state: plan.state }, ctx)).summary).toBe('short');
  });

  it('restores the latest full memory/skills snapshot when the removed prefix held it', async () => {
    const snap = snapshotMessage({ 'memory/lang': 'TypeScript' });
    const delta: Message = {
      role: 'user',
      content: 'update',
      _meta: { kind: 'context_delta', untrusted: true, upsert: { 'memory/db': 'sqlite' }, remove: [] },
    };
    const h = [sys, snap, u('x'.repeat(2000)), a('ok'), delta, u('q'), a('r'), u('next')];
    const hooks = pipeline();
    const plan = await hooks.run('compact_plan', { budget: over, history: h, cut: null }, ctx);
    expect(plan.cut).toBe(4);
    const summary: Message = {
      role: 'user',
      content: 'Summary of the earlier conversation:\nshort',
      _meta: { kind: 'compaction_summary' },
    };
    const candidate = [sys, summary, ...h.slice(plan.cut!)];
    const out = await hooks.run(
      'before_compact_commit',
      { messages: candidate, summary: 'short', state: plan.state },
      ctx,
    );
    expect(out.messages[2]).toMatchObject({ _meta: { kind: 'context_snapshot' } });
    expect(knownContext(out.messages)).toEqual(knownContext(h));
    expect((plan.state as CompactState).restore).not.toBeNull();
    // A core that already restored the snapshot gets no second copy.
    const again = await hooks.run(
      'before_compact_commit',
      { messages: out.messages, summary: 'short', state: plan.state },
      ctx,
    );
    expect(again.messages.filter((m) => m.role === 'user' && m._meta?.kind === 'context_snapshot')).toHaveLength(1);
    // A kept snapshot needs no restoring.
    const kept = await hooks.run(
      'compact_plan',
      { budget: over, history: [sys, u('x'.repeat(2000)), a('ok'), snap, u('q'), a('r')], cut: null },
      ctx,
    );
    expect((kept.state as CompactState).restore).toBeNull();
  });
});

describe('compaction in the loop, with the budget module', () => {
  const budget = { context_window: 10_000 };
  // The old part fits a summary request; the kept part (last 4 messages) is large enough that the whole does not fit.
  const old = [sys, u('y'.repeat(5000)), a('noted'), u('q2'), a('a2'), u('k'.repeat(3000)), a('a3')];

  function modules(extra?: (h: HookPipeline) => void) {
    const hooks = new HookPipeline();
    const settings = parseBudgetConfig(budget, 1000);
    hooks.register(
      createBudgetModule({ settings, endpoint: { protocol: 'openai', base_url: 'http://127.0.0.1:9/v1' } }),
    );
    hooks.register(createCompactModule({ config: parseCompactConfig({}), budget: settings }));
    extra?.(hooks);
    return { hooks, settings };
  }

  it('summarises the old prefix with a tool-less request, then sends the shorter history', async () => {
    const { hooks, settings } = modules();
    const run = await runScripted([{ content: 'The person pasted a long log of y.' }, { content: 'fine' }], {
      history: old,
      content: 'next',
      model: { budget: settings },
      hooks,
    });
    expect(run.result.stopReason).toBe('stop');
    expect(run.model.calls[0]!.input).toMatchObject({ compact: true, tools: [] });
    expect(run.model.calls[0]!.input.history.at(-1)!.content).toBe(DEFAULT_COMPACT_PROMPT);
    const sent = run.model.calls[1]!.input.history;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(String(sent[1]!.content)).toContain('long log of y');
    expect(sent.slice(2).map((m) => m.content)).toEqual(['a2', 'k'.repeat(3000), 'a3', 'next']);
  });

  it('commits nothing and keeps the original history when the summary is not smaller', async () => {
    const { hooks, settings } = modules();
    const run = await runScripted([{ content: 'z'.repeat(9500) }, { content: 'never' }], {
      history: old,
      content: 'next',
      model: { budget: settings },
      hooks,
    });
    expect(run.result.stopReason).toBe('error');
    expect(run.result.error?.message).toMatch(/not smaller/);
    expect(run.model.calls).toHaveLength(1);
    expect(run.result.messages.slice(0, old.length)).toEqual(old);
  });

  it('uses a local summary from a custom plugin without asking the model', async () => {
    const { hooks, settings } = modules((h) =>
      h.register({
        name: 'my-compactor',
        source: 'manifest',
        events: ['before_compact'],
        handle: (_e, d) => ({ ...(d as object), summary: 'Local summary.' }),
      }),
    );
    const run = await runScripted([{ content: 'fine' }], {
      history: old,
      content: 'next',
      model: { budget: settings },
      hooks,
    });
    expect(run.result.stopReason).toBe('stop');
    expect(run.model.calls).toHaveLength(1);
    expect(String(run.model.calls[0]!.input.history[1]!.content)).toContain('Local summary.');
  });
});
