// Chat Completions SSE: `data: {chat.completion.chunk}` lines, then `data: [DONE]`. Tool calls arrive as
// `delta.tool_calls[{index, id?, function:{name?, arguments}}]`: id and name only on the first fragment of each
// index, arguments split anywhere. Usage comes in a last chunk with `choices: []` when
// `stream_options.include_usage` is set. Reassembled into the non-streaming `chat.completion` JSON.
import { HarnessError } from '../contracts';
import { arr, isObject, num, obj, str } from './json-text';
import { mapChatUsage } from './map-usage';
import { StreamBlocks } from './stream-blocks';
import type { StreamDecoder, StreamEvent } from '../contracts';

interface ToolAcc {
  id: string;
  name: string;
  arguments: string;
}

export function providerErrorFromBody(body: unknown, fallback: string): HarnessError {
  const e = obj(obj(body).error);
  const message = str(e.message) ?? str(obj(body).message) ?? fallback;
  return new HarnessError('E_PROVIDER_STREAM', `The provider reported an error during the response: ${message}`, {
    type: str(e.type) ?? str(e.code) ?? null,
  });
}

export function createChatStreamDecoder(): StreamDecoder {
  const blocks = new StreamBlocks();
  let id: string | undefined;
  let model: string | undefined;
  let created: number | undefined;
  let content: string | null = null;
  let reasoning: string | undefined;
  let finish: string | null = null;
  let usage: unknown;
  let sawChoice = false;
  const tools = new Map<number, ToolAcc>();

  return {
    push({ data }) {
      const out: StreamEvent[] = [];
      if (data.trim() === '[DONE]') {
        blocks.endAll(out);
        return out;
      }
      const chunk: unknown = JSON.parse(data);
      if (!isObject(chunk)) return out;
      if (chunk.error !== undefined) throw providerErrorFromBody(chunk, 'unknown error');
      id ??= str(chunk.id);
      model ??= str(chunk.model);
      created ??= num(chunk.created);
      for (const c of arr(chunk.choices)) {
        sawChoice = true;
        const choice = obj(c);
        const delta = obj(choice.delta);
        // DeepSeek and llama.cpp say `reasoning_content`, OpenRouter says `reasoning`.
        const think = str(delta.reasoning_content) ?? str(delta.reasoning);
        if (think) {
          const index = blocks.ensure('thinking', 'thinking', out);
          reasoning = (reasoning ?? '') + think;
          out.push({ type: 'thinking-delta', index, delta: think });
        }
        const text = str(delta.content);
        if (text) {
          blocks.end('thinking', out);
          const index = blocks.ensure('text', 'text', out);
          content = (content ?? '') + text;
          out.push({ type: 'text-delta', index, delta: text });
        }
        for (const t of arr(delta.tool_calls)) {
          const tc = obj(t);
          const fn = obj(tc.function);
          const i = num(tc.index) ?? 0;
          let acc = tools.get(i);
          if (!acc) {
            blocks.end('thinking', out);
            blocks.end('text', out);
            acc = { id: str(tc.id) ?? '', name: str(fn.name) ?? '', arguments: '' };
            tools.set(i, acc);
            blocks.openTool(`tool:${i}`, acc.id, acc.name, out);
          }
          const args = str(fn.arguments);
          if (args) {
            acc.arguments += args;
            out.push({ type: 'tool-call-delta', index: blocks.indexOf(`tool:${i}`)!, delta: args });
          }
        }
        const fr = str(choice.finish_reason);
        if (fr) {
          finish = fr;
          blocks.endAll(out);
        }
      }
      if (isObject(chunk.usage)) {
        usage = chunk.usage;
        const u = mapChatUsage(usage);
        if (u) out.push({ type: 'usage', usage: u });
      }
      return out;
    },
    end() {
      const out: StreamEvent[] = [];
      blocks.endAll(out);
      return out;
    },
    finish() {
      const toolCalls = [...tools.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, t]) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } }));
      const message: Record<string, unknown> = {
        role: 'assistant',
        content: content ?? (toolCalls.length ? null : ''),
      };
      if (reasoning !== undefined) message.reasoning_content = reasoning;
      if (toolCalls.length) message.tool_calls = toolCalls;
      const raw: Record<string, unknown> = {
        id: id ?? '',
        object: 'chat.completion',
        created: created ?? 0,
        model: model ?? '',
        // A stream that stops without a finish_reason was cut off: 'incomplete' keeps its tool calls from running.
        choices: sawChoice || toolCalls.length ? [{ index: 0, message, finish_reason: finish ?? 'incomplete' }] : [],
      };
      if (usage !== undefined) raw.usage = usage;
      return raw;
    },
  };
}
