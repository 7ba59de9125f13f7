import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../contracts/tools';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { readTool } from './__fixtures__/tools';
import { estimateBudget, triggerOf } from './budget';
import { HookPipeline } from '../hooks';

describe('cancellation', () => {
  it('stops while the model is streaming, with stop reason aborted and a saved, consistent history', async () => {
    const ac = new AbortController();
    const run = await runScripted([{ hang: true, content: 'never' }], {
      signal: ac.signal,
      onEvent: (e) => e.type === 'step-start' && setTimeout(() => ac.abort(), 5),
    });
    expect(run.result.stopReason).toBe('aborted');
    expect(run.result.error?.code).toBe('E_ABORTED');
    expect(run.result.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(run.saves.at(-1)!.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('keeps the text and thinking streamed before a stop as an assistant message marked stopped', async () => {
    const ac = new AbortController();
    const run = await runScripted([{ hang: true, partial: { thinking: 'Let me see', text: 'The answer is 4' } }], {
      signal: ac.signal,
      onEvent: (e) => e.type === 'model' && e.event.type === 'text-delta' && setTimeout(() => ac.abort(), 5),
    });
    expect(run.result.stopReason).toBe('aborted');
    const saved = run.saves.at(-1)!;
    expect(saved.map((m) => m.role)).toEqual(['system', 'user', 'assistant']);
    expect(saved.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'The answer is 4',
      _stopped: { thinking: 'Let me see' },
    });
  });

  it('stops during a tool batch: calls after the abort do not run, and the result says which ran', async () => {
    const ac = new AbortController();
    const log: string[] = [];
    const stopper: ToolDefinition = {
      ...readTool(log),
      schema: { ...readTool().schema, name: 'stopper' },
      async execute() {
        log.push('stopper');
        ac.abort();
        return { output: 'stopped the turn' };
      },
    };
    const run = await runScripted(
      [
        {
          tool_calls: [
            call('c1', 'read', { path: 'a' }),
            call('c2', 'stopper', { path: 'a' }),
            call('c3', 'read', { path: 'a' }),
          ],
        },
        { content: 'x' },
      ],
      {
        tools: [readTool(log), stopper],
        files: { a: 'A' },
        signal: ac.signal,
      },
    );
    expect(log).toEqual(['read a', 'stopper']);
    expect(run.result.stopReason).toBe('aborted');
    expect(run.result.toolCalls.map((c) => [c.id, c.ran])).toEqual([
      ['c1', true],
      ['c2', true],
      ['c3', false],
    ]);
    expect(run.saves.at(-1)!.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'c3', _error: true });
    expect(run.model.calls).toHaveLength(1);
  });
});

describe('context budget', () => {
  const budget = {
    context_window: 10_000,
    max_tokens: 1_000,
    safety: 0.02,
    tool_ratio: 0.02,
    threshold: 0.8,
    image_tokens: 1600,
  };

  it('triggers at min(window × .8, window − max_tokens − safety × window)', () => {
    expect(triggerOf(budget)).toBe(8000);
    expect(triggerOf({ ...budget, max_tokens: 3000 })).toBe(6800);
  });

  it('estimates UTF-8 bytes without a usage anchor and uses a matching anchor when there is one', () => {
    const history = [{ role: 'user' as const, content: '你好'.repeat(100) }];
    const bytes = estimateBudget(budget, history, [], 0, null);
    expect(bytes.method).toBe('utf8_bytes');
    expect(bytes.estimate).toBeGreaterThanOrEqual(600);
    const anchored = estimateBudget(budget, [...history, { role: 'user', content: 'x' }], [], 0, {
      length: 1,
      last: history[0],
      tokens: 50,
    });
    expect(anchored.method).toBe('usage');
    expect(anchored.estimate).toBeLessThan(100);
    const stale = estimateBudget(budget, [{ role: 'user', content: 'other' }], [], 0, {
      length: 1,
      last: history[0],
      tokens: 50,
    });
    expect(stale.method).toBe('utf8_bytes');
  });

  it('blocks the request when the history does not fit and no compaction module is registered', async () => {
    const run = await runScripted([{ content: 'never' }], { content: 'x'.repeat(9000), model: { budget } });
    expect(run.result.stopReason).toBe('budget');
    expect(run.result.error?.code).toBe('E_CONTEXT_BUDGET');
    expect(run.model.calls).toHaveLength(0);
  });

  it('compacts through compact_plan / before_compact with a local summary, then sends the shorter history', async () => {
    const hooks = new HookPipeline();
    hooks.register({
      name: 'compact',
      source: 'profile',
      events: ['compact_plan', 'before_compact'],
      handle: (e, d) => {
        if (e === 'compact_plan') return { ...(d as object), cut: 3 };
        return { ...(d as object), summary: 'The person pasted a long log.' };
      },
    });
    const history = [
      { role: 'system' as const, content: 's' },
      { role: 'user' as const, content: 'y'.repeat(9000) },
      { role: 'assistant' as const, content: 'noted' },
    ];
    const run = await runScripted([{ content: 'fine' }], { history, content: 'next', model: { budget }, hooks });
    expect(run.result.stopReason).toBe('stop');
    const sent = run.model.calls[0]!.input.history;
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'user']);
    expect(String(sent[1]!.content)).toContain('The person pasted a long log.');
    expect(run.events.some((e) => e.type === 'compacted')).toBe(true);
  });
});
