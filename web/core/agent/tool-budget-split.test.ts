// Seed 000 §7: one tool-budget split for the loop's default estimator and the budget module — the tool share of
// the window, capped by what is left below the trigger, divided over the pending calls.
import { describe, expect, it } from 'vitest';
import { createBudgetModule } from '../modules/budget';
import type { Message, ToolSchema } from '../contracts/messages';
import { DEFAULT_BUDGET, estimateBudget } from './budget';

const settings = { ...DEFAULT_BUDGET, context_window: 10_000, max_tokens: 1000, tool_ratio: 0.1 }; // trigger 7800, share 1000
const tools: ToolSchema[] = [{ name: 'read', description: 'Reads a file.', parameters: { type: 'object' } }];
const history = (bytes: number): Message[] => [{ role: 'user', content: 'x'.repeat(bytes) }];
const moduleVerdict = (h: Message[], pending: number) =>
  createBudgetModule({ settings, endpoint: { protocol: 'openai', base_url: 'http://x' } }).estimate({
    model: 'm',
    history: h,
    tools,
    pendingCalls: pending,
    compact: false,
  });

describe('tool budget split', () => {
  it('gives the same per-call budget on the loop path and the module path', () => {
    for (const [bytes, pending] of [
      [100, 1],
      [100, 3],
      [7000, 2],
      [7700, 4],
      [9000, 1],
    ] as const) {
      const loop = estimateBudget(settings, history(bytes), tools, pending, null);
      const module = moduleVerdict(history(bytes), pending);
      expect(loop.estimate).toBe(module.estimate);
      expect(loop.tool_budget).toBe(module.tool_budget);
    }
  });

  it('divides the tool share of the window over the pending calls when there is room', () => {
    expect(estimateBudget(settings, history(100), [], 4, null).tool_budget).toBe(250);
  });

  it('never grants more than is left below the trigger (the loop used to grant the whole tool share)', () => {
    const loop = estimateBudget(settings, history(7500), [], 1, null);
    const left = loop.trigger - loop.estimate;
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(1000);
    expect(loop.tool_budget).toBe(left);
    expect(estimateBudget(settings, history(9000), [], 2, null).tool_budget).toBe(0);
  });
});
