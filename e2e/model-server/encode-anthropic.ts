// Anthropic Messages answers: thinking blocks carry a signature, tool_use input streams as input_json_delta.
import { base64Utf8 } from './base64';
import { argsText, pieces, splitArgs, usageOf } from './turn-parts';
import type { Answer, ScriptTurn } from './types';

export function anthropicAnswer(turn: ScriptTurn, model: string, stream: boolean): Answer {
  const calls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `toolu_${i + 1}`,
    name: c.name,
    args: argsText(c),
  }));
  const stop = turn.finish === 'length' ? 'max_tokens' : calls.length ? 'tool_use' : 'end_turn';
  const u = usageOf(turn);
  const signature = `sig-${base64Utf8(turn.thinking ?? '')}`;
  const content: Record<string, unknown>[] = [];
  if (turn.thinking) content.push({ type: 'thinking', thinking: turn.thinking, signature });
  if (turn.text) content.push({ type: 'text', text: turn.text });
  for (const c of calls)
    content.push({ type: 'tool_use', id: c.id, name: c.name, input: JSON.parse(c.args || '{}') as unknown });
  const message = { id: 'msg_scripted', type: 'message', role: 'assistant', model, stop_sequence: null };
  if (!stream) {
    return {
      kind: 'json',
      status: 200,
      body: { ...message, content, stop_reason: stop, usage: { input_tokens: u.input, output_tokens: u.output } },
    };
  }
  const frames: string[] = [];
  const ev = (type: string, data: Record<string, unknown>) =>
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev('message_start', {
    message: { ...message, content: [], stop_reason: null, usage: { input_tokens: u.input, output_tokens: 1 } },
  });
  let index = 0;
  if (turn.thinking) {
    ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const p of pieces(turn.thinking))
      ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: p } });
    ev('content_block_delta', { index, delta: { type: 'signature_delta', signature } });
    ev('content_block_stop', { index });
    index++;
  }
  if (turn.text) {
    ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
    ev('ping', {});
    for (const p of pieces(turn.text)) ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } });
    ev('content_block_stop', { index });
    index++;
  }
  for (const c of calls) {
    ev('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    for (const a of splitArgs(c.args))
      ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: a } });
    ev('content_block_stop', { index });
    index++;
  }
  ev('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: u.output } });
  ev('message_stop', {});
  return { kind: 'sse', frames };
}

export const anthropicError = (status: number, message: string) => ({
  type: 'error',
  error: {
    type: status === 429 ? 'rate_limit_error' : status === 529 ? 'overloaded_error' : 'invalid_request_error',
    message,
  },
});
