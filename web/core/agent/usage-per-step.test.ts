// Per-step usage (issue 15, seed 000 §8): each protocol's figures in one accounting, estimates where the provider
// said nothing, `_usage` on every answer the session keeps, and the `usage` event with the next request's size.
import { describe, expect, it } from 'vitest';
import { replay } from '../providers/__fixtures__/replay';
import { builtinAdapter } from '../providers/registry';
import type { AssistantMessage, Message, ModelResult } from '../contracts/messages';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { contextSizeOf, nextContextSize, stepUsageOf } from './step-usage';
import type { AgentEvent } from './types';
import type { ToolDefinition } from '../contracts/tools';

const answer: AssistantMessage = { role: 'assistant', content: 'ok' };
const request = { messages: [{ role: 'user', content: 'hi' }] as Message[], tools: [], imageTokens: 1600 };

async function fromFixture(protocol: string, fixture: string) {
  const { outcome } = await replay(protocol, fixture, [{ role: 'user', content: 'q' }]);
  const r = (outcome as ModelResult).parsed.response;
  return stepUsageOf({
    protocol,
    model: 'm',
    usage: r.usage,
    rawUsage: r.raw_usage,
    request,
    answer: r.choices[0]!.message,
    durationMs: 12.4,
  });
}

describe('usage accounting per protocol (seed 000 §8)', () => {
  it('OpenAI Chat: cached tokens are part of the input', async () => {
    // prompt_tokens 82 of which cached 64, completion 41.
    const u = await fromFixture('openai', 'openai-chat-parallel-tools');
    expect(u).toMatchObject({
      input_tokens: 82,
      cache_read_tokens: 64,
      cache_write_tokens: 0,
      output_tokens: 41,
      reported: { input: true, output: true, cache: true },
      duration_ms: 12,
      protocol: 'openai',
    });
  });

  it('Responses: cached tokens are part of the input, reasoning is reported apart', async () => {
    const u = await fromFixture('responses', 'responses-reasoning-tools');
    expect(u).toMatchObject({
      input_tokens: 310,
      cache_read_tokens: 256,
      output_tokens: 120,
      reasoning_tokens: 64,
      reported: { input: true, output: true, cache: true },
    });
  });

  it('DeepSeek: the input is hit + miss, the hit is the cache read', async () => {
    const u = await fromFixture('deepseek', 'deepseek-reasoning-tool');
    expect(u).toMatchObject({ input_tokens: 64 + 56, cache_read_tokens: 64, output_tokens: 30, reasoning_tokens: 18 });
    // Without prompt_tokens the partition still gives the whole input.
    const raw = { prompt_cache_hit_tokens: 10, prompt_cache_miss_tokens: 5, completion_tokens: 3 };
    const v = stepUsageOf({
      protocol: 'deepseek',
      model: 'm',
      usage: { output_tokens: 3, cache_read_tokens: 10 },
      rawUsage: raw,
      request,
      answer,
      durationMs: 1,
    });
    expect(v).toMatchObject({
      input_tokens: 15,
      cache_read_tokens: 10,
      reported: { input: true, output: true, cache: true },
    });
  });

  it('Anthropic: input is plain + cache read + cache creation, and creation is a write, not a hit', async () => {
    // Streamed: message_start input 472, cache read 2048, creation 0; message_delta's output 89 is the final count.
    const streamed = await fromFixture('anthropic', 'anthropic-thinking-tool');
    expect(streamed).toMatchObject({
      input_tokens: 472 + 2048,
      cache_read_tokens: 2048,
      cache_write_tokens: 0,
      output_tokens: 89,
    });
    const raw = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
      usage: { input_tokens: 100, cache_read_input_tokens: 1000, cache_creation_input_tokens: 500, output_tokens: 20 },
    };
    const parsed = (await builtinAdapter('anthropic').parse(raw)).response;
    const u = stepUsageOf({
      protocol: 'anthropic',
      model: 'm',
      usage: parsed.usage,
      rawUsage: parsed.raw_usage,
      request,
      answer,
      durationMs: 1,
    });
    expect(u).toMatchObject({
      input_tokens: 1600,
      cache_read_tokens: 1000,
      cache_write_tokens: 500,
      output_tokens: 20,
    });
    // The hit ratio is read / all input: the 500 written are not counted as a hit.
    expect(u.cache_read_tokens / u.input_tokens).toBeCloseTo(0.625);
  });

  it('estimates what the provider did not report, in UTF-8 bytes, and says so', () => {
    const sent: Message[] = [{ role: 'user', content: 'é'.repeat(50) }];
    const u = stepUsageOf({
      protocol: 'openai',
      model: 'local',
      request: { messages: sent, tools: [], imageTokens: 1600 },
      answer: { role: 'assistant', content: 'ünïcode' },
      durationMs: 5,
    });
    expect(u.reported).toEqual({ input: false, output: false, cache: false });
    // The request's JSON is at least the 100 bytes of its text; the answer is exactly its 10 bytes.
    expect(u.input_tokens).toBeGreaterThanOrEqual(100);
    expect(u.output_tokens).toBe(new TextEncoder().encode('ünïcode').length);
    expect(u.cache_read_tokens).toBe(0);
    // Output reported, input not: each flag on its own.
    const half = stepUsageOf({
      protocol: 'openai',
      model: 'm',
      usage: { output_tokens: 7 },
      request,
      answer,
      durationMs: 0,
    });
    expect(half).toMatchObject({ output_tokens: 7, reported: { input: false, output: true, cache: false } });
  });
});

describe('the next request size', () => {
  it('without provider usage equals a full recount of the history with the answer, images included', () => {
    const budget = {
      context_window: 50_000,
      max_tokens: 1000,
      safety: 0.02,
      tool_ratio: 0.02,
      threshold: 0.8,
      image_tokens: 1600,
    };
    const tools = [{ name: 't', description: 'd', parameters: { type: 'object' } }];
    const history: Message[] = [
      { role: 'system', content: 's' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      { role: 'assistant', content: 'ü'.repeat(30) },
    ];
    const reply: AssistantMessage = {
      role: 'assistant',
      content: 'an answer',
      tool_calls: [call('c9', 't', { a: 1 })],
    };
    for (const b of [budget, null]) {
      const usage = stepUsageOf({
        protocol: 'openai',
        model: 'm',
        request: { messages: history, tools, imageTokens: 1600 },
        answer: reply,
        durationMs: 1,
      });
      const size = nextContextSize(b, usage, history, reply, tools, null);
      expect(size).toEqual(contextSizeOf(b, [...history, reply], tools, null));
      expect(size.tokens).toBeGreaterThan(1600);
    }
  });
});

const echo: ToolDefinition = {
  schema: {
    name: 'echo',
    description: 'echo',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
  approval: 'free',
  external: false,
  execute: async () => ({ output: 'echoed' }),
};
const kinds = (events: AgentEvent[]) => events.filter((e) => e.type !== 'model').map((e) => e.type);

describe('usage in the loop', () => {
  it('stamps _usage on every answer before it is saved and sends a usage event after each assistant event', async () => {
    const budget = {
      context_window: 100_000,
      max_tokens: 1000,
      safety: 0.02,
      tool_ratio: 0.02,
      threshold: 0.8,
      image_tokens: 1600,
    };
    const run = await runScripted(
      [
        { tool_calls: [call('c1', 'echo', {})], usage: { input_tokens: 500, output_tokens: 20 } },
        { content: 'done', usage: { input_tokens: 600, output_tokens: 10, cache_read_tokens: 500 } },
      ],
      { tools: [echo], model: { budget } },
    );
    expect(run.result.stopReason).toBe('stop');
    expect(kinds(run.events)).toEqual([
      'turn-start',
      'step-start',
      'assistant',
      'usage',
      'tool-start',
      'approval',
      'tool-result',
      'checkpoint',
      'step-start',
      'assistant',
      'usage',
      'checkpoint',
      'done',
    ]);
    const usages = run.events.filter((e): e is Extract<AgentEvent, { type: 'usage' }> => e.type === 'usage');
    expect(usages.map((e) => [e.step, e.usage.input_tokens, e.usage.cache_read_tokens, e.compact])).toEqual([
      [1, 500, 0, undefined],
      [2, 600, 500, undefined],
    ]);
    // The next request's size: anchored on the reported usage (not an estimate), against the window and trigger.
    expect(usages[1]!.context).toMatchObject({ window: 100_000, trigger: 80_000, estimated: false });
    expect(usages[1]!.context.tokens).toBeGreaterThanOrEqual(610);
    const saved = run.saves.at(-1)!.filter((m): m is AssistantMessage => m.role === 'assistant');
    expect(saved.map((m) => m._usage?.input_tokens)).toEqual([500, 600]);
    expect(saved[0]!._usage).toMatchObject({ protocol: 'openai', model: 'm', reported: { input: true, output: true } });
    // The assistant event carries the same stamped message.
    expect(run.events.find((e) => e.type === 'assistant')).toMatchObject({
      message: { _usage: { input_tokens: 500 } },
    });
    // TurnResult.usage is the sum of the calls' usage events (the same §8 accounting, not the providers' raw figures).
    expect(run.result.usage).toEqual({
      input_tokens: 1100,
      output_tokens: 30,
      cache_read_tokens: 500,
      cache_write_tokens: 0,
    });
    const sum = (k: 'input_tokens' | 'output_tokens' | 'cache_read_tokens') =>
      usages.reduce((n, e) => n + e.usage[k], 0);
    expect([run.result.usage.input_tokens, run.result.usage.output_tokens, run.result.usage.cache_read_tokens]).toEqual(
      [sum('input_tokens'), sum('output_tokens'), sum('cache_read_tokens')],
    );
  });

  it('without a budget or provider usage: no window or trigger, and the size is an estimate', async () => {
    const run = await runScripted([{ content: 'hello' }]);
    const e = run.events.find((x): x is Extract<AgentEvent, { type: 'usage' }> => x.type === 'usage')!;
    expect(e.context).toMatchObject({ window: null, trigger: null, estimated: true });
    expect(e.context.tokens).toBeGreaterThan(0);
    expect(e.usage.reported).toEqual({ input: false, output: false, cache: false });
    expect(e.usage.output_tokens).toBe(5);
  });

  it('a stopped answer keeps what is known: estimates of what was sent and streamed', async () => {
    const controller = new AbortController();
    const run = await runScripted([{ hang: true, partial: { text: 'Half an ans', thinking: 'hmm' } }], {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === 'model' && e.event.type === 'text-delta') controller.abort();
      },
    });
    expect(run.result.stopReason).toBe('aborted');
    const stopped = run.saves.at(-1)!.at(-1) as AssistantMessage;
    expect(stopped._stopped).toEqual({ thinking: 'hmm' });
    expect(stopped._usage).toMatchObject({
      output_tokens: 'Half an ans'.length + 'hmm'.length,
      reported: { input: false, output: false, cache: false },
      cache_read_tokens: 0,
    });
    expect(stopped._usage!.input_tokens).toBeGreaterThan(0);
  });
});
