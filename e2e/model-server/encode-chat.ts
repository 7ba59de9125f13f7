// Chat Completions answers (OpenAI; DeepSeek adds reasoning_content and cache hit/miss usage).
import { argsText, pieces, splitArgs, usageOf } from './turn-parts';
import type { Answer, ScriptTurn } from './types';

export function chatAnswer(
  turn: ScriptTurn,
  model: string,
  stream: boolean,
  includeUsage: boolean,
  deepseek: boolean,
): Answer {
  const calls = (turn.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_${i + 1}`,
    name: c.name,
    args: argsText(c),
  }));
  const finish = turn.finish === 'length' ? 'length' : calls.length ? 'tool_calls' : 'stop';
  const u = usageOf(turn);
  const usage: Record<string, unknown> = {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
  };
  const cached = u.cached ?? 0;
  if (deepseek) Object.assign(usage, { prompt_cache_hit_tokens: cached, prompt_cache_miss_tokens: u.input - cached });
  else if (u.cached !== undefined) usage.prompt_tokens_details = { cached_tokens: cached };
  const base = { id: 'chatcmpl-scripted', created: 1700000000, model };
  if (!stream) {
    const message: Record<string, unknown> = { role: 'assistant', content: turn.text ?? (calls.length ? null : '') };
    if (turn.thinking) message.reasoning_content = turn.thinking;
    if (calls.length)
      message.tool_calls = calls.map((c) => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.args },
      }));
    return {
      kind: 'json',
      status: 200,
      body: { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage },
    };
  }
  const chunk = (delta: Record<string, unknown>, finish_reason: string | null = null) =>
    JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  for (const p of pieces(turn.thinking ?? '')) frames.push(chunk({ reasoning_content: p }));
  for (const p of pieces(turn.text ?? '')) frames.push(chunk({ content: p }));
  calls.forEach((c, index) => {
    frames.push(
      chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }),
    );
    for (const a of splitArgs(c.args)) frames.push(chunk({ tool_calls: [{ index, function: { arguments: a } }] }));
  });
  frames.push(chunk({}, finish));
  if (includeUsage) frames.push(JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage }));
  frames.push('[DONE]');
  return { kind: 'sse', frames: frames.map((f) => `data: ${f}\n\n`) };
}

export const chatError = (status: number, message: string) => ({
  error: { message, type: status === 429 ? 'rate_limit_error' : 'invalid_request_error', code: null },
});
