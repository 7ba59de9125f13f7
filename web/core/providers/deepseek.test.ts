import { describe, expect, it } from 'vitest';
import type { ModelResult } from '../transport';
import { replay, requestBodyFor } from './__fixtures__/replay';
import type { Message } from '../contracts/messages';

describe('deepseek (chat adapter with DeepSeek flags)', () => {
  it('streams reasoning_content as thinking, then the tool call, with cache-hit usage', async () => {
    const { events, outcome } = await replay('deepseek', 'deepseek-reasoning-tool', [
      { role: 'user', content: 'List src' },
    ]);
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
      'usage',
      'done',
    ]);
    const r = outcome as ModelResult;
    expect(r.parsed.response.choices[0]!.message).toMatchObject({
      reasoning_content: 'The user wants the file list; I should call list_dir.',
      tool_calls: [
        { id: 'call_00_ds9', type: 'function', function: { name: 'list_dir', arguments: '{"path": "src"}' } },
      ],
    });
    expect(r.parsed.response.usage).toEqual({
      input_tokens: 120,
      output_tokens: 30,
      cache_read_tokens: 64,
      reasoning_tokens: 18,
    });
  });

  it('replays reasoning_content and the raw argument text on the next turn, and always sends max_tokens', async () => {
    const history: Message[] = [{ role: 'user', content: 'List src' }];
    const { outcome } = await replay('deepseek', 'deepseek-reasoning-tool', history);
    const assistant = (outcome as ModelResult).parsed.response.choices[0]!.message;
    const sent = await requestBodyFor(
      'deepseek',
      [...history, assistant, { role: 'tool', tool_call_id: 'call_00_ds9', content: 'a.ts\nb.ts' }],
      {
        extra_body: { thinking: { type: 'enabled' } },
      },
    );
    expect(sent.url).toBe('https://api.deepseek.com/chat/completions');
    expect(sent.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'user', content: 'List src' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'The user wants the file list; I should call list_dir.',
          tool_calls: [
            { id: 'call_00_ds9', type: 'function', function: { name: 'list_dir', arguments: '{"path": "src"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_00_ds9', content: 'a.ts\nb.ts' },
      ],
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
      thinking: { type: 'enabled' },
    });
  });

  it('never sends reasoning_content on the plain openai protocol', async () => {
    const history: Message[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        content: 'a',
        reasoning_content: 'secret thoughts',
        _provider: { protocol: 'openai', model: 'm' },
      },
      { role: 'user', content: 'q2' },
    ];
    const sent = await requestBodyFor('openai', history);
    expect(JSON.stringify(sent.body)).not.toContain('secret thoughts');
  });
});
