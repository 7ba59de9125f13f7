import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isModelFailure, type ModelResult } from '../transport';
import { replay, requestBodyFor } from './__fixtures__/replay';
import { parseResponses } from './openai-responses';
import { createResponsesStreamDecoder } from './openai-responses-stream';
import type { Message, ToolSchema } from '../contracts/messages';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Weather by city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const ENC = 'gAAAAABoEnc-OPAQUE-REASONING-STATE==';

describe('openai responses adapter', () => {
  it('streams the reasoning summary and parallel function calls; tool call ids are call_ids', async () => {
    const history: Message[] = [
      { role: 'system', content: 'Be exact.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather and time?' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
        ],
      },
    ];
    const { events, outcome, sent } = await replay('responses', 'responses-reasoning-tools', history, {
      tools: [weather],
    });
    expect(events.map((e) => e.type)).toEqual([
      'start',
      'thinking-start',
      'thinking-delta',
      'thinking-delta',
      'thinking-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-delta',
      'tool-call-end',
      'tool-call-start',
      'tool-call-delta',
      'tool-call-end',
      'usage',
      'done',
    ]);
    const choice = (outcome as ModelResult).parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls!.map((c) => c.id)).toEqual(['call_W1', 'call_T2']);
    expect(choice.message.reasoning_content).toBe('**Checking both** weather and time.');
    expect((outcome as ModelResult).parsed.response.usage).toEqual({
      input_tokens: 310,
      output_tokens: 120,
      cache_read_tokens: 256,
      reasoning_tokens: 64,
    });

    expect(sent[0]!.url).toBe('https://api.openai.com/v1/responses');
    expect(sent[0]!.body).toEqual({
      model: 'test-model',
      instructions: 'Be exact.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Weather and time?' },
            { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ' },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather by city',
          parameters: weather.parameters,
          strict: false,
        },
      ],
      max_output_tokens: 256,
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });

    // Next turn: every output item replayed verbatim (reasoning with encrypted_content included), outputs linked
    // by call_id — never by the fc_ item id.
    const next: Message[] = [
      ...history,
      choice.message,
      { role: 'tool', tool_call_id: 'call_W1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_T2', content: '14:00' },
    ];
    const again = await requestBodyFor('responses', next);
    expect((again.body.input as unknown[]).slice(1)).toEqual([
      {
        id: 'rs_68a1r',
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: '**Checking both** weather and time.' }],
        encrypted_content: ENC,
      },
      {
        id: 'fc_68a1a',
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Paris"}',
        call_id: 'call_W1',
        name: 'get_weather',
      },
      {
        id: 'fc_68a1b',
        type: 'function_call',
        status: 'completed',
        arguments: '{"tz":"Europe/Paris"}',
        call_id: 'call_T2',
        name: 'get_time',
      },
      { type: 'function_call_output', call_id: 'call_W1', output: '18°C' },
      { type: 'function_call_output', call_id: 'call_T2', output: '14:00' },
    ]);
  });

  it('never hands out tool calls from an incomplete response, and drops them from replay', async () => {
    const { events, outcome } = await replay('responses', 'responses-incomplete', [
      { role: 'user', content: 'write it' },
    ]);
    const choice = (outcome as ModelResult).parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('incomplete');
    expect(choice.message.tool_calls).toBeUndefined();
    expect(choice.message.content).toBe('I will now call');
    expect(choice.message._responses_output).toEqual([
      {
        id: 'msg_inc',
        type: 'message',
        status: 'incomplete',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'I will now call', annotations: [] }],
      },
    ]);
    // The UI saw the call start, and it was closed; the terminal event is still `done` with no calls.
    expect(events.filter((e) => e.type === 'tool-call-end')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('done');
  });

  it('reads an error event whose details are nested under `error`, showing its message and code', async () => {
    const { events, outcome } = await replay('responses', 'responses-error-nested', [{ role: 'user', content: 'x' }]);
    expect(isModelFailure(outcome)).toBe(true);
    expect(outcome).toMatchObject({
      error: {
        code: 'E_PROVIDER_STREAM',
        message:
          'The provider reported an error during the response: You have no credits remaining. (code credit_balance_exhausted). Try again later; if it keeps happening, check the account and model with the provider.',
        data: { type: 'insufficient_quota', code: 'credit_balance_exhausted' },
      },
    });
    // The text that arrived before the error is kept in the partial result the error event carries.
    expect(events.map((e) => e.type)).toEqual(['start', 'text-start', 'text-delta', 'error']);
    expect(events.at(-1)).toMatchObject({
      result: { parsed: { response: { choices: [{ finish_reason: 'incomplete', message: { content: 'Partial' } }] } } },
    });
  });

  it('reads the documented flat error event, showing its message and code', async () => {
    const { outcome } = await replay('responses', 'responses-error-flat', [{ role: 'user', content: 'x' }]);
    expect(outcome).toMatchObject({
      error: {
        code: 'E_PROVIDER_STREAM',
        message: expect.stringContaining('Rate limit reached for requests. (code rate_limit_exceeded)'),
        data: { type: null, code: 'rate_limit_exceeded' },
      },
    });
  });

  it('ends a response.failed with the reason and code of response.error', async () => {
    const { events, outcome } = await replay('responses', 'responses-failed', [{ role: 'user', content: 'x' }]);
    expect(events.map((e) => e.type)).toEqual(['start', 'error']);
    expect(outcome).toMatchObject({
      error: {
        code: 'E_PROVIDER_FAILED',
        message:
          'The provider reports the response failed: The model failed to generate a response. (code server_error). Try again, or shorten the request.',
        data: { code: 'server_error' },
      },
    });
  });

  it('ends a response.failed that carries its error on the event itself (no response object) with that reason and code', async () => {
    const { outcome } = await replay('responses', 'responses-failed-event-error', [{ role: 'user', content: 'x' }]);
    expect(outcome).toMatchObject({
      error: {
        code: 'E_PROVIDER_FAILED',
        message: expect.stringContaining(
          'The prompt is longer than the loaded context of 4096 tokens. (code context_length_exceeded)',
        ),
        data: { code: 'context_length_exceeded' },
      },
    });
  });

  it('reads reasoning_text events (LM Studio, local servers) as thinking and replays the reasoning item on the next turn', async () => {
    const history: Message[] = [{ role: 'user', content: 'Weather in Oslo?' }];
    const { events, outcome } = await replay('responses', 'responses-reasoning-text-tool', history, {
      tools: [weather],
    });
    expect(events).toEqual([
      expect.objectContaining({ type: 'start' }),
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, delta: 'The user wants the weather. ' },
      { type: 'thinking-delta', index: 0, delta: 'Call get_weather.' },
      { type: 'thinking-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_lm_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, delta: '{"city":"Oslo"}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'usage', usage: { input_tokens: 80, output_tokens: 24 } },
      expect.objectContaining({ type: 'done' }),
    ]);
    const choice = (outcome as ModelResult).parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.reasoning_content).toBe('The user wants the weather. Call get_weather.');
    const next: Message[] = [...history, choice.message, { role: 'tool', tool_call_id: 'call_lm_1', content: '3°C' }];
    const again = await requestBodyFor('responses', next);
    expect((again.body.input as unknown[]).slice(1)).toEqual([
      {
        id: 'rs_lm1',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'The user wants the weather. Call get_weather.' }],
      },
      {
        id: 'fc_lm1',
        type: 'function_call',
        status: 'completed',
        arguments: '{"city":"Oslo"}',
        call_id: 'call_lm_1',
        name: 'get_weather',
      },
      { type: 'function_call_output', call_id: 'call_lm_1', output: '3°C' },
    ]);
  });

  it('shows reasoning that arrives only as response.reasoning_text.done, once', async () => {
    const { events, outcome } = await replay('responses', 'responses-reasoning-text-done-only', [
      { role: 'user', content: 'hi' },
    ]);
    expect(events.filter((e) => e.type !== 'start' && e.type !== 'done')).toEqual([
      { type: 'thinking-start', index: 0 },
      { type: 'thinking-delta', index: 0, delta: 'Short greeting, answer briefly.' },
      { type: 'thinking-end', index: 0 },
      { type: 'text-start', index: 1 },
      { type: 'text-delta', index: 1, delta: 'Hello!' },
      { type: 'text-end', index: 1 },
      { type: 'usage', usage: { input_tokens: 12, output_tokens: 9 } },
    ]);
    const message = (outcome as ModelResult).parsed.response.choices[0]!.message;
    expect(message.reasoning_content).toBe('Short greeting, answer briefly.');
    expect(message.content).toBe('Hello!');
  });

  it('keeps reasoning_text that arrived before the stream was cut, in the message and in the replayed item', () => {
    const lines = readFileSync(
      fileURLToPath(new URL('./__fixtures__/responses-reasoning-text-tool.chunks.txt', import.meta.url)),
      'utf8',
    )
      .trim()
      .split('\n');
    const decoder = createResponsesStreamDecoder();
    // Cut after the two reasoning deltas: no .done, no output_item.done, no terminal event.
    for (const line of lines.slice(0, 6)) decoder.push({ data: line });
    const message = parseResponses(decoder.finish()).response.choices[0]!.message;
    expect(message.reasoning_content).toBe('The user wants the weather. Call get_weather.');
    expect(message._responses_output).toEqual([
      {
        id: 'rs_lm1',
        type: 'reasoning',
        summary: [],
        content: [{ type: 'reasoning_text', text: 'The user wants the weather. Call get_weather.' }],
      },
    ]);
  });
});
