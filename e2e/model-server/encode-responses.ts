// OpenAI Responses answers: reasoning items with encrypted_content, function_call items with call_id.
import { base64Utf8 } from './base64';
import { argsText, pieces, splitArgs, usageOf } from './turn-parts';
import type { Answer, ScriptTurn } from './types';

export function responsesAnswer(turn: ScriptTurn, model: string, stream: boolean): Answer {
  const calls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i + 1}`,
    name: c.name,
    args: argsText(c),
  }));
  const incomplete = turn.finish === 'length';
  const u = usageOf(turn);
  const output: Record<string, unknown>[] = [];
  if (turn.thinking) {
    output.push({
      id: 'rs_1',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: turn.thinking }],
      encrypted_content: `enc-${base64Utf8(turn.thinking)}`,
    });
  }
  if (turn.text) {
    output.push({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      status: incomplete ? 'incomplete' : 'completed',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  calls.forEach((c, i) =>
    output.push({
      id: `fc_${i + 1}`,
      type: 'function_call',
      call_id: c.id,
      name: c.name,
      arguments: c.args,
      status: 'completed',
    }),
  );
  const response = {
    id: 'resp_scripted',
    object: 'response',
    created_at: 1700000000,
    model,
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    output,
    usage: {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: u.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: u.input + u.output,
    },
  };
  if (!stream) return { kind: 'json', status: 200, body: response };
  const frames: string[] = [];
  let seq = 0;
  const ev = (type: string, data: Record<string, unknown>) =>
    frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const shell = { ...response, status: 'in_progress', incomplete_details: null, output: [], usage: null };
  ev('response.created', { response: shell });
  ev('response.in_progress', { response: shell });
  output.forEach((item, output_index) => {
    if (item.type === 'reasoning') {
      ev('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      ev('response.reasoning_summary_part.added', {
        item_id: item.id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
      for (const p of pieces(turn.thinking ?? ''))
        ev('response.reasoning_summary_text.delta', { item_id: item.id, output_index, summary_index: 0, delta: p });
      ev('response.reasoning_summary_text.done', {
        item_id: item.id,
        output_index,
        summary_index: 0,
        text: turn.thinking,
      });
    } else if (item.type === 'message') {
      ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      ev('response.content_part.added', {
        item_id: item.id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const p of pieces(turn.text ?? ''))
        ev('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: p });
      ev('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text: turn.text });
    } else {
      ev('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } });
      for (const a of splitArgs(String(item.arguments)))
        ev('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: a });
      ev('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    }
    ev('response.output_item.done', { output_index, item });
  });
  ev(incomplete ? 'response.incomplete' : 'response.completed', { response });
  return { kind: 'sse', frames };
}
