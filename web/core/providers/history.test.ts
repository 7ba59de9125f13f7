import { describe, expect, it } from 'vitest';
import { MISSING_TOOL_RESULT, answerDanglingToolCalls, replayNotice } from './history';
import type { AssistantMessage, Message } from '../contracts/messages';

const call = (id: string) => ({ id, type: 'function' as const, function: { name: 't', arguments: '{}' } });

describe('history normalisation', () => {
  it('adds an error result for each unanswered call after the real results and tool images', () => {
    const a: AssistantMessage = { role: 'assistant', content: null, tool_calls: [call('1'), call('2')] };
    const img: Message = { role: 'user', content: [], _meta: { kind: 'tool_images', tool_call_id: '1' } };
    const out = answerDanglingToolCalls([
      { role: 'user', content: 'go' },
      a,
      { role: 'tool', tool_call_id: '1', content: 'r1' },
      img,
      { role: 'user', content: 'next' },
    ]);
    expect(out.map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : m.role))).toEqual([
      'user',
      'assistant',
      'tool:1',
      'user',
      'tool:2',
      'user',
    ]);
    expect(out[4]).toEqual({ role: 'tool', tool_call_id: '2', content: MISSING_TOOL_RESULT, _error: true });
  });

  it('leaves a complete history as it is', () => {
    const h: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('1')] },
      { role: 'tool', tool_call_id: '1', content: 'r' },
    ];
    expect(answerDanglingToolCalls(h)).toEqual(h);
  });

  it('gives the replay notice only while the latest answer came from another protocol', () => {
    const fromAnthropic: Message = {
      role: 'assistant',
      content: 'a',
      _provider: { protocol: 'anthropic', model: 'c' },
    };
    expect(replayNotice([fromAnthropic], 'responses')).toMatchObject({ code: 'N_REPLAY_NOT_LOSSLESS' });
    expect(replayNotice([fromAnthropic], 'anthropic')).toBeNull();
    expect(
      replayNotice(
        [fromAnthropic, { role: 'assistant', content: 'b', _provider: { protocol: 'responses', model: 'o' } }],
        'responses',
      ),
    ).toBeNull();
  });
});
