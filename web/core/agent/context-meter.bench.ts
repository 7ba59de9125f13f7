// npm run bench: the context meter on a 10,000-message session. Updating it for one new message (push) against a
// full recount of the same history with the budget's estimator (estimateBudget over every message: what computing
// the size from the log costs when no anchor can be trusted, e.g. after a compaction, and what finding the anchor
// in a stored log walks anyway). Target: ≤ 0.02 (at least 50× faster).
import { it } from 'vitest';
import { fmt, report } from '../../../scripts/bench-kit';
import { DEFAULT_BUDGET, estimateBudget } from './budget';
import type { BudgetSettings } from '../hooks';
import type { Message, ToolSchema } from '../contracts/messages';
import { createContextMeter } from './context-meter';
import type { StepUsage } from '../contracts/usage';

const BUDGET: BudgetSettings = { ...DEFAULT_BUDGET, context_window: 200_000, max_tokens: 8_000 };
const TOOLS: ToolSchema[] = ['read', 'write', 'edit', 'search', 'run'].map((name) => ({
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
}));
const usage: StepUsage = {
  input_tokens: 150_000,
  output_tokens: 300,
  cache_read_tokens: 140_000,
  cache_write_tokens: 0,
  reported: { input: true, output: true, cache: true },
  duration_ms: 900,
  protocol: 'openai',
  model: 'm',
};

/** A long agent session: user / assistant-with-call / tool result / answer, a few hundred bytes each. */
function message(i: number): Message {
  switch (i % 4) {
    case 0:
      return { role: 'user', content: `Please look at src/file${i}.ts and explain what it exports.` };
    case 1:
      return {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"src/file${i}.ts"}` } },
        ],
      };
    case 2:
      return { role: 'tool', tool_call_id: `c${i - 1}`, content: `export const value${i} = ${i};\n`.repeat(12) };
    default:
      // Every fourth answer without usage, so the recount also walks bytes after the anchor.
      return i % 8 === 3
        ? { role: 'assistant', content: `It exports value${i - 1}.`, _usage: usage }
        : { role: 'assistant', content: `It exports value${i - 1}.` };
  }
}

it('context meter: one new message vs a full recount, 10,000 messages', () => {
  const N = 10_000;
  const history: Message[] = [{ role: 'system', content: 'You are i.' }];
  for (let i = 1; i < N; i++) history.push(message(i));
  const meter = createContextMeter({ budget: BUDGET, tools: TOOLS });
  meter.reset(history);

  const PUSHES = 200;
  const RUNS = 15;
  const baseline: number[] = [];
  const candidate: number[] = [];
  let next = N;
  let sink = 0;
  for (let r = 0; r < RUNS + 3; r++) {
    let t = performance.now();
    sink += estimateBudget(BUDGET, history, TOOLS, 0, null).estimate;
    const b = performance.now() - t;
    t = performance.now();
    for (let k = 0; k < PUSHES; k++) sink += meter.push(message(next++)).tokens;
    const c = (performance.now() - t) / PUSHES;
    if (r >= 3) {
      baseline.push(b);
      candidate.push(c);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const b = median(baseline);
  const c = median(candidate);
  if (sink === 0) throw new Error('nothing was measured');
  report('context meter (10,000 messages)', `push one message ${fmt(c)} vs full recount ${fmt(b)}`, c / b, 0.02);
});
