// `_usage` (what a call cost, issue 15) is host data stamped on saved answers: replaying the history to any
// protocol must never send it. Adapters map fields explicitly; this holds them to it.
import { describe, expect, it } from 'vitest';
import { requestBodyFor } from './__fixtures__/replay';
import type { Message } from '../contracts/messages';
import type { StepUsage } from '../contracts/usage';

const usage: StepUsage = {
  input_tokens: 424242,
  output_tokens: 171717,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reported: { input: true, output: true, cache: false },
  duration_ms: 987654,
  protocol: 'usage-marker-protocol',
  model: 'usage-marker-model',
};

describe.each(['openai', 'deepseek', 'anthropic', 'responses'])('%s request body', (protocol) => {
  it('leaves out the _usage stamp of earlier answers and the compaction record of a summary', async () => {
    const history: Message[] = [
      // A compaction summary carries its record and its call's usage in _meta: host data too.
      {
        role: 'user',
        content: 'Summary of the earlier conversation:\nq',
        _meta: { kind: 'compaction_summary', compaction: { id: 'compaction-marker', folded_messages: 3 }, usage },
      },
      { role: 'assistant', content: 'ok' },
      // A prompt whose turn failed keeps the error for the chat (issue 33); the next request sends the words only.
      {
        role: 'user',
        content: 'q',
        _turn: 'turn-marker-id',
        _failed: { code: 'E_FAILED_MARKER', message: 'failed-marker' },
      },
      { role: 'assistant', content: 'the earlier answer', _provider: { protocol, model: 'test-model' }, _usage: usage },
      { role: 'user', content: 'q2' },
      // Who approved a call (and the rule) is kept on the tool message for its card: host data as well.
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'edit', arguments: '{}' } }],
      },
      {
        role: 'tool',
        tool_call_id: 'call-1',
        content: 'edited',
        _approval: {
          by: 'rule',
          rule: { decision: 'allow', tool: 'edit', path: 'rule-marker/**', scope: 'workspace', index: 0 },
        },
        _outside_undo: true,
      },
      { role: 'user', content: 'q3' },
    ];
    const sent = JSON.stringify((await requestBodyFor(protocol, history)).body);
    expect(sent).toContain('the earlier answer');
    for (const marker of [
      '"_usage"',
      '"_meta"',
      'compaction-marker',
      'folded_messages',
      'usage-marker',
      '424242',
      '171717',
      '987654',
      'duration_ms',
      '_approval',
      'rule-marker',
      '_turn',
      'turn-marker-id',
      '_outside_undo',
      '_failed',
      'E_FAILED_MARKER',
      'failed-marker',
    ])
      expect(sent).not.toContain(marker);
  });
});
