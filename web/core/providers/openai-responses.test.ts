import { describe, expect, it } from 'vitest';
import type { ModelResult } from '../transport';
import { replay, requestBodyFor } from './__fixtures__/replay';
import type { Message, ToolSchema } from './types';

const weather: ToolSchema = { name: 'get_weather', description: 'Weather by city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
const ENC = 'gAAAAABoEnc-OPAQUE-REASONING-STATE==';

describe('openai responses adapter', () => {
  it('streams the reasoning summary and parallel function calls; tool call ids are call_ids', async () => {
    const history: Message[] = [
      { role: 'system', content: 'Be exact.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather and time?' }, { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } }] },
    ];
    const { events, outcome, sent } = await replay('responses', 'responses-reasoning-tools', history, { tools: [weather] });
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
    expect((outcome as ModelResult).parsed.response.usage).toEqual({ input_tokens: 310, output_tokens: 120, cache_read_tokens: 256, reasoning_tokens: 64 });

    expect(sent[0]!.url).toBe('https://api.openai.com/v1/responses');
    expect(sent[0]!.body).toEqual({
      model: 'test-model',
      instructions: 'Be exact.',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'Weather and time?' }, { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/4AAQ' }] }],
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather by city', parameters: weather.parameters, strict: false }],
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
      { id: 'rs_68a1r', type: 'reasoning', summary: [{ type: 'summary_text', text: '**Checking both** weather and time.' }], encrypted_content: ENC },
      { id: 'fc_68a1a', type: 'function_call', status: 'completed', arguments: '{"city":"Paris"}', call_id: 'call_W1', name: 'get_weather' },
      { id: 'fc_68a1b', type: 'function_call', status: 'completed', arguments: '{"tz":"Europe/Paris"}', call_id: 'call_T2', name: 'get_time' },
      { type: 'function_call_output', call_id: 'call_W1', output: '18°C' },
      { type: 'function_call_output', call_id: 'call_T2', output: '14:00' },
    ]);
  });

  it('never hands out tool calls from an incomplete response, and drops them from replay', async () => {
    const { events, outcome } = await replay('responses', 'responses-incomplete', [{ role: 'user', content: 'write it' }]);
    const choice = (outcome as ModelResult).parsed.response.choices[0]!;
    expect(choice.finish_reason).toBe('incomplete');
    expect(choice.message.tool_calls).toBeUndefined();
    expect(choice.message.content).toBe('I will now call');
    expect(choice.message._responses_output).toEqual([
      { id: 'msg_inc', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', text: 'I will now call', annotations: [] }] },
    ]);
    // The UI saw the call start, and it was closed; the terminal event is still `done` with no calls.
    expect(events.filter((e) => e.type === 'tool-call-end')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('done');
  });
});
