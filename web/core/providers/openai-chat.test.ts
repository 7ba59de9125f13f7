import { describe, expect, it } from 'vitest';
import { isModelFailure, streamModel, type ModelResult } from '../transport';
import { collect, prepareInput } from '../transport/test-support';
import { replayFetch } from './__fixtures__/load-fixture';
import { replay, requestBodyFor } from './__fixtures__/replay';
import type { Message, ToolSchema } from '../contracts/messages';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Weather by city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const image = 'data:image/png;base64,iVBORw0KGgo=';

describe('openai chat adapter', () => {
  it('streams text with a multi-byte character split across reads, then usage and done', async () => {
    // 3-byte reads split "世", "界" and the 4-byte "🙂" mid-character.
    const { events, outcome } = await replay(
      'openai',
      'openai-chat-text-usage',
      [{ role: 'user', content: 'hi' }],
      {},
      3,
    );
    expect(events.map((e) => e.type)).toEqual([
      'start',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-end',
      'usage',
      'done',
    ]);
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { delta: string }).delta)).toEqual([
      'Hello',
      ', 世界 🙂',
      '!',
    ]);
    expect(events.find((e) => e.type === 'usage')).toEqual({
      type: 'usage',
      usage: { input_tokens: 19, output_tokens: 8, cache_read_tokens: 0, reasoning_tokens: 0 },
    });
    const r = outcome as ModelResult;
    expect(r.parsed.response.choices[0]).toEqual({
      finish_reason: 'stop',
      message: {
        role: 'assistant',
        content: 'Hello, 世界 🙂!',
        _provider: { protocol: 'openai', model: 'test-model' },
      },
    });
    expect(r.raw).toMatchObject({
      object: 'chat.completion',
      choices: [{ message: { content: 'Hello, 世界 🙂!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 19 },
    });
  });

  it('sends system, text and image_url parts, function tools and max_completion_tokens', async () => {
    const history: Message[] = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image?' },
          { type: 'image_url', image_url: { url: image } },
        ],
      },
    ];
    const sent = await requestBodyFor('openai', history, { tools: [weather] });
    expect(sent.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-fixture-key-000000');
    expect(sent.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image?' },
            { type: 'image_url', image_url: { url: image } },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather by city', parameters: weather.parameters },
        },
      ],
      max_completion_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('replays an answer the person stopped with its text, and leaves out one stopped before any text', async () => {
    const history: Message[] = [
      { role: 'user', content: 'Tell me' },
      { role: 'assistant', content: 'Part of it', _stopped: {} },
      { role: 'user', content: 'Continue from where you stopped.' },
      { role: 'assistant', content: '', _stopped: { thinking: 'hmm' } },
      { role: 'user', content: 'Again' },
    ];
    const sent = await requestBodyFor('openai', history);
    expect((sent.body as { messages: unknown[] }).messages).toEqual([
      { role: 'user', content: 'Tell me' },
      { role: 'assistant', content: 'Part of it' },
      { role: 'user', content: 'Continue from where you stopped.' },
      { role: 'user', content: 'Again' },
    ]);
  });

  it('uses max_tokens when use_max_tokens is set, and merges extra_body last', async () => {
    const sent = await requestBodyFor('openai', [{ role: 'user', content: 'x' }], {
      use_max_tokens: true,
      extra_body: { temperature: 0.2 },
    });
    expect(sent.body.max_tokens).toBe(256);
    expect(sent.body).not.toHaveProperty('max_completion_tokens');
    expect(sent.body.temperature).toBe(0.2);
  });

  it('reassembles parallel tool calls whose arguments are split across chunks, and replays them verbatim next turn', async () => {
    const history: Message[] = [{ role: 'user', content: 'Weather and time in Paris?' }];
    const { events, outcome } = await replay('openai', 'openai-chat-parallel-tools', history, { tools: [weather] });
    const r = outcome as ModelResult;
    expect(events.filter((e) => e.type.startsWith('tool-call'))).toEqual([
      { type: 'tool-call-start', index: 0, id: 'call_Weather1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, delta: '{"ci' },
      { type: 'tool-call-delta', index: 0, delta: 'ty": "Par' },
      { type: 'tool-call-delta', index: 0, delta: 'is"}' },
      { type: 'tool-call-start', index: 1, id: 'call_Time2', name: 'get_time' },
      { type: 'tool-call-delta', index: 1, delta: '{"tz": "Europe/Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-end', index: 1 },
    ]);
    const choice = r.parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.tool_calls).toEqual([
      { id: 'call_Weather1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
      { id: 'call_Time2', type: 'function', function: { name: 'get_time', arguments: '{"tz": "Europe/Paris"}' } },
    ]);
    expect(r.parsed.response.usage).toEqual({
      input_tokens: 82,
      output_tokens: 41,
      cache_read_tokens: 64,
      reasoning_tokens: 0,
    });

    const next: Message[] = [
      ...history,
      choice.message,
      { role: 'tool', tool_call_id: 'call_Weather1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_Time2', content: '14:00' },
    ];
    const sent = await requestBodyFor('openai', next);
    expect(sent.body.messages).toEqual([
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_Weather1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Paris"}' } },
          { id: 'call_Time2', type: 'function', function: { name: 'get_time', arguments: '{"tz": "Europe/Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_Weather1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_Time2', content: '14:00' },
    ]);
  });

  it('reports finish_reason length when the output cap cuts the answer', async () => {
    const { outcome } = await replay('openai', 'openai-chat-length', [{ role: 'user', content: 'x' }]);
    expect((outcome as ModelResult).parsed.response.choices[0]).toMatchObject({
      finish_reason: 'length',
      message: { content: 'The answer is a long' },
    });
  });

  it('parses a non-streaming completion the same way', async () => {
    const body = JSON.stringify({
      id: 'chatcmpl-ns',
      object: 'chat.completion',
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 2 },
    });
    const { fetch } = replayFetch(body, { contentType: 'application/json' });
    const { events, outcome } = await collect(
      streamModel({
        input: prepareInput('openai', 'https://api.openai.com/v1', [{ role: 'user', content: 'x' }], { stream: false }),
        fetch,
      }),
    );
    expect(events.map((e) => e.type)).toEqual(['start', 'usage', 'done']);
    expect((outcome as ModelResult).parsed.response.choices[0]!.message.tool_calls![0]!.id).toBe('call_1');
  });

  it('turns an error body into the provider message, recognising context overflow', async () => {
    const body = JSON.stringify({
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    });
    const { fetch } = replayFetch(body, { status: 400, contentType: 'application/json' });
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', 'https://api.openai.com/v1', [{ role: 'user', content: 'x' }]),
        fetch,
      }),
    );
    expect(isModelFailure(outcome)).toBe(true);
    expect(outcome).toMatchObject({
      error: {
        code: 'E_CONTEXT_OVERFLOW',
        data: { status: 400, provider_message: expect.stringContaining('maximum context length') },
      },
    });
  });
});
