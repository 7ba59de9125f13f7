// Anthropic SSE: message_start, then per block content_block_start / content_block_delta (text_delta,
// thinking_delta, signature_delta, input_json_delta) / content_block_stop, then message_delta (stop_reason,
// cumulative usage) and message_stop; `ping` anywhere; `error` may arrive mid-stream. Reassembled into the
// non-streaming `message` JSON, with tool_use `input` parsed from the concatenated partial_json.
import { argumentsObject, isObject, num, obj, str } from './json-text';
import { mapAnthropicUsage } from './map-usage';
import { providerErrorFromBody } from './openai-chat-stream';
import { StreamBlocks } from './stream-blocks';
import type { StreamDecoder, StreamEvent } from '../contracts';

export function createAnthropicStreamDecoder(): StreamDecoder {
  const blocks = new StreamBlocks();
  let message: Record<string, unknown> | undefined;
  const content: Record<string, unknown>[] = [];
  const partialJson = new Map<number, string>();
  let usage: Record<string, unknown> = {};

  const closeBlock = (i: number, out: StreamEvent[]) => {
    const b = content[i];
    if (b && b.type === 'tool_use' && partialJson.has(i)) b.input = argumentsObject(partialJson.get(i)!);
    blocks.end(`b:${i}`, out);
  };

  return {
    push({ data }) {
      const out: StreamEvent[] = [];
      const ev: unknown = JSON.parse(data);
      if (!isObject(ev)) return out;
      switch (ev.type) {
        case 'message_start': {
          message = { ...obj(ev.message) };
          usage = { ...obj(message.usage) };
          break;
        }
        case 'content_block_start': {
          const i = num(ev.index) ?? content.length;
          const block = { ...obj(ev.content_block) };
          content[i] = block;
          if (block.type === 'text') {
            blocks.ensure(`b:${i}`, 'text', out);
            const t = str(block.text);
            if (t) out.push({ type: 'text-delta', index: blocks.indexOf(`b:${i}`)!, delta: t });
          } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
            blocks.ensure(`b:${i}`, 'thinking', out);
          } else if (block.type === 'tool_use') {
            partialJson.set(i, '');
            blocks.openTool(`b:${i}`, str(block.id) ?? '', str(block.name) ?? '', out);
          }
          break;
        }
        case 'content_block_delta': {
          const i = num(ev.index) ?? 0;
          const block = content[i];
          const delta = obj(ev.delta);
          const index = blocks.indexOf(`b:${i}`);
          if (!block || index === undefined) break;
          if (delta.type === 'text_delta') {
            const t = str(delta.text) ?? '';
            block.text = (str(block.text) ?? '') + t;
            out.push({ type: 'text-delta', index, delta: t });
          } else if (delta.type === 'thinking_delta') {
            const t = str(delta.thinking) ?? '';
            block.thinking = (str(block.thinking) ?? '') + t;
            out.push({ type: 'thinking-delta', index, delta: t });
          } else if (delta.type === 'signature_delta') {
            block.signature = (str(block.signature) ?? '') + (str(delta.signature) ?? '');
          } else if (delta.type === 'input_json_delta') {
            const t = str(delta.partial_json) ?? '';
            partialJson.set(i, (partialJson.get(i) ?? '') + t);
            if (t) out.push({ type: 'tool-call-delta', index, delta: t });
          }
          break;
        }
        case 'content_block_stop':
          closeBlock(num(ev.index) ?? 0, out);
          break;
        case 'message_delta': {
          const d = obj(ev.delta);
          message ??= {};
          if ('stop_reason' in d) message.stop_reason = d.stop_reason;
          if ('stop_sequence' in d) message.stop_sequence = d.stop_sequence;
          usage = { ...usage, ...obj(ev.usage) };
          const u = mapAnthropicUsage(usage);
          if (u) out.push({ type: 'usage', usage: u });
          break;
        }
        case 'error':
          throw providerErrorFromBody(ev, 'unknown error');
        default:
          break; // ping, message_stop and future event types
      }
      return out;
    },
    end() {
      const out: StreamEvent[] = [];
      content.forEach((_, i) => closeBlock(i, out));
      return out;
    },
    finish() {
      if (!message) return { type: 'message', role: 'assistant', content: [], stop_reason: null };
      const raw: Record<string, unknown> = { ...message, content: content.filter((b) => b !== undefined), usage };
      // A stream cut before message_delta has no stop_reason: treat it as incomplete so no tool runs.
      if (raw.stop_reason === null || raw.stop_reason === undefined) raw.stop_reason = 'incomplete';
      return raw;
    },
  };
}
