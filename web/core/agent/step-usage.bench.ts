// What measuring a model call's usage and the next request's size costs the loop per step on a 10,000-message
// session, against the full byte recount the default budget already does per step. With the provider's usage the
// measurement is anchored (only what is newer than the anchor is counted); without it both figures are estimated
// from the whole history once (the next request's size adds the answer to the input estimate).
import { it } from 'vitest';
import { compare } from '../../../scripts/bench-kit';
import type { AssistantMessage, Message, ToolSchema } from '../contracts/messages';
import { anchorFrom, DEFAULT_BUDGET, estimateBudget } from './budget';
import { anchorUsage, nextContextSize, stepUsageOf } from './step-usage';

const budget = { ...DEFAULT_BUDGET, context_window: 2_000_000, max_tokens: 4096 };
const tools: ToolSchema[] = Array.from({ length: 12 }, (_, i) => ({
  name: `tool_${i}`,
  description: 'does a thing '.repeat(10),
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
}));

function session(n: number): Message[] {
  const out: Message[] = [{ role: 'system', content: 'You are a coding agent. '.repeat(40) }];
  for (let i = 1; i < n; i++) {
    if (i % 4 === 1) out.push({ role: 'user', content: `question ${i}: ${'why does it fail '.repeat(8)}` });
    else if (i % 4 === 2)
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"src/file-${i}.ts"}` } },
        ],
      });
    else if (i % 4 === 3)
      out.push({ role: 'tool', tool_call_id: `c${i - 1}`, content: `export const x${i} = ${i};\n`.repeat(12) });
    else out.push({ role: 'assistant', content: `The file defines x${i}. ${'It is fine. '.repeat(10)}` });
  }
  return out;
}

it('usage measurement per step vs a full recount, 10,000 messages', async () => {
  const history = session(10_000);
  const answer: AssistantMessage = { role: 'assistant', content: 'Next I will edit src/file-9.ts.' };
  const next = [...history, answer];
  const measure = (reported: boolean) => () => {
    const usage = stepUsageOf({
      protocol: 'openai',
      model: 'm',
      ...(reported ? { usage: { input_tokens: 900_000, output_tokens: 12, cache_read_tokens: 800_000 } } : {}),
      request: { messages: history, tools, imageTokens: budget.image_tokens },
      answer,
      durationMs: 1,
    });
    nextContextSize(budget, usage, history, answer, tools, anchorFrom(anchorUsage(usage), next));
  };
  const recount = { label: 'full recount', run: () => estimateBudget(budget, next, tools, 0, null) };
  await compare(
    'usage + context per step with provider usage (10,000 messages)',
    recount,
    { label: 'measure', run: measure(true) },
    { runs: 11, warmup: 2, target: 0.05 },
  );
  await compare(
    'usage + context per step without provider usage (10,000 messages)',
    recount,
    { label: 'measure', run: measure(false) },
    { runs: 11, warmup: 2, target: 1.5 },
  );
});
