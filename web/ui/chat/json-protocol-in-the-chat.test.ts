// A JSON-protocol session in the chat: the envelope the loop sends back after a malformed reply is a note to the
// model, never shown as the person's message; the JSON tool call shows as an ordinary tool card with its result.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/contracts';
import { chatItems, lastPromptIndex } from './chat-model';

const provider = { protocol: 'openai', model: 'm', tool_protocol: 'json' as const };
const history: Message[] = [
  { role: 'user', content: 'What does a.txt say?' },
  { role: 'assistant', content: 'I will read it.', _provider: { ...provider, json_reply: 'I will read it.' } },
  {
    role: 'user',
    content:
      '{"jingwei_tool_result":{"name":"json_action_protocol","ok":false,"output":"Error E_JSON_ACTION_NO_JSON: …"},"untrusted_tool_data":true}',
    _meta: { kind: 'json_protocol_error', code: 'E_JSON_ACTION_NO_JSON' },
  },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'json_2_ab', type: 'function', function: { name: 'read', arguments: '{"path":"a.txt"}' } }],
    _provider: provider,
  },
  { role: 'tool', tool_call_id: 'json_2_ab', content: 'hello' },
  { role: 'assistant', content: 'a.txt says hello', _provider: provider },
];

describe('a JSON-protocol session in the chat', () => {
  it('shows one prompt, the tool card with its result and the answer; the protocol error is not a prompt', () => {
    const items = chatItems(history);
    expect(items.filter((i) => i.kind === 'user').map((i) => (i as { text: string }).text)).toEqual([
      'What does a.txt say?',
    ]);
    const withTool = items.find((i) => i.kind === 'assistant' && i.tools.length > 0) as {
      tools: Array<{ name: string; result?: { output: string } }>;
    };
    expect(withTool.tools.map((t) => [t.name, t.result?.output])).toEqual([['read', 'hello']]);
    expect(lastPromptIndex(history)).toBe(0);
  });
});
