import { describe, expect, it } from 'vitest';
import { isModelFailure, type ModelResult } from '../transport';
import { replay, requestBodyFor } from './__fixtures__/replay';
import type { Message, ToolSchema } from '../contracts/messages';

const weather: ToolSchema = {
  name: 'get_weather',
  description: 'Weather by city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const SIGNATURE =
  'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxDbSxVqeBe5JMIVwUiMDl+6LvNqIyYV3BAKHhjBU+DAaPG9bnCrXsEBcF9uW2b1pV0Wd8q8RmWhX3wMHgQDSoQ';

describe('anthropic messages adapter', () => {
  it('streams thinking, text and two tool calls with split input_json, keeping the signature', async () => {
    const history: Message[] = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Weather and time in Paris?' },
    ];
    const { events, outcome, sent } = await replay('anthropic', 'anthropic-thinking-tool', history, {
      tools: [weather],
    });
    expect(events.map((e) => e.type)).toEqual([
      'start',
      'thinking-start',
      'thinking-delta',
      'thinking-delta',
      'thinking-end',
      'text-start',
      'text-delta',
      'text-delta',
      'text-end',
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
    const r = outcome as ModelResult;
    const choice = r.parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Let me check the weather.');
    expect(choice.message.reasoning_content).toBe('I need the weather in Paris first.');
    expect(choice.message.tool_calls).toEqual([
      { id: 'toolu_01Wx', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { id: 'toolu_02Tm', type: 'function', function: { name: 'get_time', arguments: '{"tz":"Europe/Paris"}' } },
    ]);
    expect(choice.message._anthropic_content![0]).toEqual({
      type: 'thinking',
      thinking: 'I need the weather in Paris first.',
      signature: SIGNATURE,
    });
    expect(r.parsed.response.usage).toEqual({
      input_tokens: 472,
      output_tokens: 89,
      cache_read_tokens: 2048,
      cache_write_tokens: 0,
    });

    // The request: system top-level, tools as input_schema, the key in x-api-key with the browser-access header.
    expect(sent[0]!.url).toBe('https://api.anthropic.com/v1/messages');
    expect(sent[0]!.headers).toMatchObject({
      'x-api-key': 'sk-fixture-key-000000',
      'anthropic-version': '2023-06-01',
      'anthropic-dangerous-direct-browser-access': 'true',
    });
    expect(sent[0]!.headers).not.toHaveProperty('authorization');
    expect(sent[0]!.body).toEqual({
      model: 'test-model',
      max_tokens: 256,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather and time in Paris?' }] }],
      tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: weather.parameters }],
      stream: true,
    });

    // Next turn: the original content (thinking + signature, text, tool_use) is replayed verbatim and both tool
    // results plus the tool image form one user turn of tool_result blocks.
    const next: Message[] = [
      ...history,
      choice.message,
      { role: 'tool', tool_call_id: 'toolu_01Wx', content: '18°C' },
      { role: 'tool', tool_call_id: 'toolu_02Tm', content: 'failed: no clock', _error: true },
      {
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }],
        _meta: { kind: 'tool_images', tool_call_id: 'toolu_01Wx' },
      },
    ];
    const again = await requestBodyFor('anthropic', next);
    expect(again.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather and time in Paris?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'I need the weather in Paris first.', signature: SIGNATURE },
          { type: 'text', text: 'Let me check the weather.' },
          { type: 'tool_use', id: 'toolu_01Wx', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_02Tm', name: 'get_time', input: { tz: 'Europe/Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01Wx', content: '18°C' },
          { type: 'tool_result', tool_use_id: 'toolu_02Tm', content: 'failed: no clock', is_error: true },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('keeps redacted_thinking for replay and maps max_tokens to length', async () => {
    const { outcome } = await replay('anthropic', 'anthropic-redacted-max-tokens', [{ role: 'user', content: 'x' }]);
    const choice = (outcome as ModelResult).parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('length');
    expect(choice.message._anthropic_content![0]).toEqual({
      type: 'redacted_thinking',
      data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj',
    });
    const again = await requestBodyFor('anthropic', [
      { role: 'user', content: 'x' },
      choice.message,
      { role: 'user', content: 'go on' },
    ]);
    expect((again.body.messages as { content: unknown[] }[])[1]!.content[0]).toMatchObject({
      type: 'redacted_thinking',
    });
  });

  it('ends with the provider error when an error event arrives mid-stream, keeping the partial text', async () => {
    const { events, outcome } = await replay('anthropic', 'anthropic-overloaded-error', [
      { role: 'user', content: 'x' },
    ]);
    expect(isModelFailure(outcome)).toBe(true);
    expect(outcome).toMatchObject({
      error: { code: 'E_PROVIDER_STREAM', message: expect.stringContaining('Overloaded') },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      result: { parsed: { response: { choices: [{ finish_reason: 'incomplete', message: { content: 'Start' } }] } } },
    });
  });
});
