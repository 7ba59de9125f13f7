import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../contracts/messages';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { readTool, writeTool } from './__fixtures__/tools';

const good = call('ok1', 'read', { path: 'a' });

describe('tool-call batch validation', () => {
  const cases: Array<[string, ToolCall[], RegExp, string?]> = [
    ['an unknown tool name', [good, call('x1', 'rm_rf', {})], /unknown tool "rm_rf"/],
    ['arguments that are not JSON', [good, call('x1', 'read', '{"path": ')], /not valid JSON/],
    ['arguments that are a JSON array', [good, call('x1', 'read', '["a"]')], /must be a JSON object/],
    [
      'a call of type other than function',
      [good, { ...call('x1', 'read', { path: 'a' }), type: 'custom' as 'function' }],
      /expected "function"/,
    ],
    ['a finish reason other than tool_calls', [good], /finish reason "length"/, 'length'],
  ];
  it.each(cases)('runs no call of a batch with %s, and tells the model why', async (_label, calls, message, finish) => {
    const log: string[] = [];
    const run = await runScripted(
      [{ tool_calls: calls, ...(finish ? { finish_reason: finish } : {}) }, { content: 'sorry' }],
      {
        tools: [readTool(log), writeTool(log)],
        files: { a: 'A' },
        approval: { yolo: true },
      },
    );
    expect(log).toEqual([]);
    expect(run.events.some((e) => e.type === 'batch-invalid')).toBe(true);
    const next = run.model.calls[1]!.input.history;
    const results = next.filter((m) => m.role === 'tool');
    expect(results.map((m) => (m.role === 'tool' ? m.tool_call_id : ''))).toEqual(calls.map((c) => c.id));
    for (const r of results) expect(String(r.content)).toMatch(message);
    expect(run.result.toolCalls.every((c) => !c.ran && c.code === 'E_TOOL_BATCH_INVALID')).toBe(true);
    expect(run.result.stopReason).toBe('stop');
  });

  it.each([
    ['a duplicated id', [good, call('ok1', 'read', { path: 'b' })]],
    ['a missing id', [good, { ...call('', 'read', { path: 'b' }) }]],
  ])('drops the calls and explains in a user message when a batch has %s', async (_label, calls) => {
    const log: string[] = [];
    const run = await runScripted([{ content: 'trying', tool_calls: calls }, { content: 'sorry' }], {
      tools: [readTool(log)],
      files: { a: 'A', b: 'B' },
    });
    expect(log).toEqual([]);
    const next = run.model.calls[1]!.input.history;
    expect(next.at(-2)).toMatchObject({ role: 'assistant', content: 'trying' });
    expect(next.at(-2)).not.toHaveProperty('tool_calls');
    expect(next.at(-1)).toMatchObject({ role: 'user', content: expect.stringMatching(/E_TOOL_BATCH_INVALID/) });
  });
});
