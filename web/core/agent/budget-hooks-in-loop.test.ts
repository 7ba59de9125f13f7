// The loop asks context_budget again with the batch's pending calls for the per-call tool budget, and tags each
// request with its session (the cache module's stream key).
import { describe, expect, it } from 'vitest';
import { HookPipeline, type HookDataMap } from '../hooks';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import type { ToolDefinition } from '../contracts/tools';

const big: ToolDefinition = {
  schema: {
    name: 'big',
    description: 'returns 3000 bytes',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  approval: 'free',
  external: false,
  execute: async () => ({ output: 'z'.repeat(3000) }),
};

describe('budget hooks in the loop', () => {
  it('cuts each tool result to the tool budget context_budget gives for the pending calls', async () => {
    const seen: number[] = [];
    const hooks = new HookPipeline();
    hooks.register({
      name: 'budget-probe',
      source: 'profile',
      events: ['context_budget'],
      handle: (_e, data) => {
        const d = data as HookDataMap['context_budget'];
        seen.push(d.pending_calls);
        // 1000 bytes shared by the pending calls.
        return {
          ...d,
          result: {
            ...d.result,
            tool_budget: d.pending_calls > 0 ? Math.floor(1000 / d.pending_calls) : d.result.tool_budget,
          },
        };
      },
    });
    const run = await runScripted([{ tool_calls: [call('a', 'big', {}), call('b', 'big', {})] }, { content: 'done' }], {
      hooks,
      tools: [big],
    });
    expect(run.result.stopReason).toBe('stop');
    expect(seen).toEqual([0, 2, 0]);
    const outputs = run.result.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(outputs).toHaveLength(2);
    for (const o of outputs) expect(new TextEncoder().encode(o).length).toBeLessThanOrEqual(500);
    expect(run.model.calls.map((c) => c.requestMeta.session)).toEqual(['test-session', 'test-session']);
  });
});
