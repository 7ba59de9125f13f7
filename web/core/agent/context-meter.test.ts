// The meter counts one message at a time and must always equal the budget's full recount (estimateBudget) of the
// same history, tools and usage anchor; after a compaction it must not trust usage measured before it.
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET, estimateBudget, triggerOf, type UsageAnchor } from './budget';
import type { BudgetSettings } from '../hooks';
import type { AssistantMessage, Message, ToolSchema } from '../contracts/messages';
import { createContextMeter } from '.';
import type { StepUsage } from '../contracts/usage';

const BUDGET: BudgetSettings = { ...DEFAULT_BUDGET, context_window: 16_000, max_tokens: 1_000 };
const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const TOOLS: ToolSchema[] = [
  {
    name: 'read',
    description: 'Read a file',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
  {
    name: 'write',
    description: 'Write a file — 書く',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
  },
];

const usage = (input: number, output: number, reported = true): StepUsage => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reported: { input: reported, output: reported, cache: reported },
  duration_ms: 10,
  protocol: 'openai',
  model: 'm',
});

/** A varied history: head, AGENTS.md, a memory snapshot, text, tool calls and results, images, unicode, stamped answers. */
function varied(seed: number, n: number): Message[] {
  const out: Message[] = [
    { role: 'system', content: 'You are i. ' + 'rules '.repeat(seed % 7) },
    { role: 'user', content: 'Project rules', _meta: { kind: 'project_instructions' } },
    {
      role: 'user',
      content: 'Context snapshot',
      _meta: { kind: 'context_snapshot', untrusted: true, items: { 'memory/a': 'b' } },
    },
  ];
  for (let i = 0; out.length < n; i++) {
    const k = (seed * 31 + i) % 6;
    if (k === 0) out.push({ role: 'user', content: `question ${i} — ünïcödé 漢字 ${'x'.repeat(i % 13)}` });
    else if (k === 1)
      out.push({
        role: 'user',
        content: [
          { type: 'text', text: `look ${i}` },
          { type: 'image_url', image_url: { url: PNG } },
        ],
      });
    else if (k === 2) {
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"f${i}.ts"}` } }],
        _usage: usage(900 + i, 20 + i),
      } as AssistantMessage);
      out.push({
        role: 'tool',
        tool_call_id: `c${i}`,
        content: 'line\n'.repeat(i % 9),
        _full_output: 'never counted '.repeat(50),
      });
    } else if (k === 3)
      out.push({
        role: 'assistant',
        content: `answer ${i}`,
        reasoning_content: 'thinking…',
        _usage: usage(1000 + i, 30, i % 2 === 0),
      });
    else if (k === 4)
      out.push({
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: PNG } }],
        _meta: { kind: 'tool_images', tool_call_id: `c${i}` },
      });
    else out.push({ role: 'assistant', content: `plain ${i}` });
  }
  return out;
}

/** The anchor estimateBudget would use for this history: the last answer whose usage reported input and output. */
function lastAnchor(history: readonly Message[]): UsageAnchor | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role === 'assistant' && m._usage?.reported.input && m._usage.reported.output)
      return { length: i + 1, last: m, tokens: m._usage.input_tokens + m._usage.output_tokens };
  }
  return null;
}

describe('context meter', () => {
  it.each([1, 2, 3, 4, 5, 6, 7])('equals a full recount after every pushed message (history %i)', (seed) => {
    const history = varied(seed, 60);
    const meter = createContextMeter({ budget: BUDGET, tools: TOOLS });
    const start = 10;
    meter.reset(history.slice(0, start));
    for (let i = start; i < history.length; i++) {
      const got = meter.push(history[i]!);
      const prefix = history.slice(0, i + 1);
      const anchor = lastAnchor(prefix);
      expect(got.tokens).toBe(estimateBudget(BUDGET, prefix, TOOLS, 0, anchor).estimate);
      expect(got.estimated).toBe(anchor === null);
      expect(meter.length).toBe(i + 1);
    }
    const reset = createContextMeter({ budget: BUDGET, tools: TOOLS }).reset(history);
    expect(reset).toEqual(meter.size());
    expect(reset).toMatchObject({ window: 16_000, trigger: triggerOf(BUDGET) });
  });

  it('counts images at image_tokens, not their bytes, and follows tool changes', () => {
    const meter = createContextMeter({ budget: BUDGET });
    const plain = meter.push({ role: 'user', content: [{ type: 'text', text: 'a' }] }).tokens;
    const image = (url: string) =>
      createContextMeter({ budget: BUDGET }).push({
        role: 'user',
        content: [
          { type: 'text', text: 'a' },
          { type: 'image_url', image_url: { url } },
        ],
      }).tokens;
    // A 100 KB image costs the same as a tiny one: image_tokens plus the part's JSON around an emptied URL.
    expect(image(PNG)).toBe(image(`data:image/png;base64,${'A'.repeat(100_000)}`));
    expect(image(PNG) - plain).toBe(BUDGET.image_tokens + ',{"type":"image_url","image_url":{"url":""}}'.length);
    const before = meter.size().tokens;
    expect(meter.setTools(TOOLS).tokens - before).toBe(
      estimateBudget(BUDGET, [], TOOLS, 0, null).estimate - estimateBudget(BUDGET, [], [], 0, null).estimate,
    );
  });

  it('anchors on the provider usage of the last answer and adds only what came after it', () => {
    const meter = createContextMeter({ budget: BUDGET });
    meter.reset([
      { role: 'system', content: 'x'.repeat(5000) },
      { role: 'user', content: 'hi' },
    ]);
    expect(meter.size().estimated).toBe(true);
    const answered = meter.push({ role: 'assistant', content: 'hello', _usage: usage(300, 7) });
    expect(answered).toMatchObject({
      tokens: 307 + estimateBudget(BUDGET, [], [], 0, null).estimate,
      estimated: false,
    });
    const next = meter.push({ role: 'user', content: 'more' });
    expect(next.tokens - answered.tokens).toBe(
      estimateBudget(BUDGET, [{ role: 'user', content: 'more' }], [], 0, null).estimate - 2,
    );
    // An answer whose usage the provider did not report keeps the earlier anchor and is counted in bytes.
    expect(meter.push({ role: 'assistant', content: 'guess', _usage: usage(1, 1, false) }).estimated).toBe(false);
  });

  it('does not trust usage measured before a compaction: the size after it is a byte estimate', () => {
    const kept: AssistantMessage = { role: 'assistant', content: 'kept answer', _usage: usage(50_000, 100) };
    const compacted: Message[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'Summary of the earlier conversation:\n…', _meta: { kind: 'compaction_summary' } },
      { role: 'user', content: 'kept question' },
      kept,
    ];
    const meter = createContextMeter({ budget: BUDGET });
    const size = meter.reset(compacted);
    expect(size.estimated).toBe(true);
    expect(size.tokens).toBe(estimateBudget(BUDGET, compacted, [], 0, null).estimate);
    expect(size.tokens).toBeLessThan(50_000);
    // The next answer measured on the compacted history anchors again.
    expect(meter.push({ role: 'user', content: 'go on' }).estimated).toBe(true);
    expect(meter.push({ role: 'assistant', content: 'new', _usage: usage(120, 4) }).estimated).toBe(false);
  });

  it('without a budget shows the size with no window and no trigger', () => {
    const size = createContextMeter({ budget: null }).reset([{ role: 'user', content: 'hello' }]);
    expect(size).toMatchObject({ window: null, trigger: null, estimated: true });
    expect(size.tokens).toBe(
      estimateBudget(
        { ...DEFAULT_BUDGET, context_window: 0, max_tokens: 0 },
        [{ role: 'user', content: 'hello' }],
        [],
        0,
        null,
      ).estimate,
    );
  });
});
