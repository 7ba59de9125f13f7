// Responses SSE: `event: <type>` + JSON data with the same `type`. response.created → per output item
// response.output_item.added, deltas (response.output_text.delta, response.reasoning_summary_text.delta,
// response.function_call_arguments.delta), response.output_item.done with the finished item → a terminal
// response.completed | response.incomplete | response.failed carrying the whole response; `error` may arrive
// mid-stream. The terminal response is the reassembled JSON; items seen in the stream fill in a missing output.
import { isObject, num, obj, str } from './json-text';
import { mapResponsesUsage } from './map-usage';
import { providerErrorFromBody } from './openai-chat-stream';
import { StreamBlocks } from './stream-blocks';
import type { StreamDecoder, StreamEvent } from './types';

/** Keeps a partial item's text current, so a stream cut mid-way still yields what arrived. */
function appendPart(item: Record<string, unknown> | undefined, field: 'content' | 'summary', i: number, type: string, delta: string): void {
  if (!item) return;
  const parts = Array.isArray(item[field]) ? (item[field] as Record<string, unknown>[]).slice() : [];
  const part = { ...(parts[i] ?? { type }) };
  part.text = (str(part.text) ?? '') + delta;
  parts[i] = part;
  item[field] = parts;
}

export function createResponsesStreamDecoder(): StreamDecoder {
  const blocks = new StreamBlocks();
  const items: Record<string, unknown>[] = [];
  const keysOf = new Map<number, Set<string>>();
  let base: Record<string, unknown> | undefined;
  let final: Record<string, unknown> | undefined;

  const track = (oi: number, key: string) => {
    let s = keysOf.get(oi);
    if (!s) keysOf.set(oi, (s = new Set()));
    s.add(key);
  };
  const endItem = (oi: number, out: StreamEvent[]) => {
    for (const k of keysOf.get(oi) ?? []) blocks.end(k, out);
  };

  return {
    push({ data }) {
      const out: StreamEvent[] = [];
      const ev: unknown = JSON.parse(data);
      if (!isObject(ev)) return out;
      const oi = num(ev.output_index) ?? 0;
      switch (ev.type) {
        case 'response.created':
        case 'response.in_progress':
          base = { ...obj(ev.response) };
          break;
        case 'response.output_item.added': {
          const item = { ...obj(ev.item) };
          items[oi] = item;
          if (item.type === 'function_call') {
            item.arguments = str(item.arguments) ?? '';
            track(oi, `o:${oi}`);
            blocks.openTool(`o:${oi}`, str(item.call_id) ?? '', str(item.name) ?? '', out);
          }
          break;
        }
        case 'response.output_text.delta': {
          const key = `t:${oi}:${num(ev.content_index) ?? 0}`;
          track(oi, key);
          const index = blocks.ensure(key, 'text', out);
          const d = str(ev.delta) ?? '';
          appendPart(items[oi], 'content', num(ev.content_index) ?? 0, 'output_text', d);
          if (d) out.push({ type: 'text-delta', index, delta: d });
          break;
        }
        case 'response.output_text.done':
          blocks.end(`t:${oi}:${num(ev.content_index) ?? 0}`, out);
          break;
        case 'response.reasoning_summary_text.delta': {
          const key = `r:${oi}:${num(ev.summary_index) ?? 0}`;
          track(oi, key);
          const index = blocks.ensure(key, 'thinking', out);
          const d = str(ev.delta) ?? '';
          appendPart(items[oi], 'summary', num(ev.summary_index) ?? 0, 'summary_text', d);
          if (d) out.push({ type: 'thinking-delta', index, delta: d });
          break;
        }
        case 'response.reasoning_summary_text.done':
          blocks.end(`r:${oi}:${num(ev.summary_index) ?? 0}`, out);
          break;
        case 'response.function_call_arguments.delta': {
          const item = items[oi];
          const index = blocks.indexOf(`o:${oi}`);
          const d = str(ev.delta) ?? '';
          if (item) item.arguments = (str(item.arguments) ?? '') + d;
          if (index !== undefined && d) out.push({ type: 'tool-call-delta', index, delta: d });
          break;
        }
        case 'response.output_item.done':
          if (isObject(ev.item)) items[oi] = { ...ev.item };
          endItem(oi, out);
          break;
        case 'response.completed':
        case 'response.incomplete':
        case 'response.failed': {
          final = { ...obj(ev.response) };
          blocks.endAll(out);
          const u = mapResponsesUsage(final.usage);
          if (u) out.push({ type: 'usage', usage: u });
          break;
        }
        case 'error':
          throw providerErrorFromBody({ error: ev }, 'unknown error');
        default:
          break;
      }
      return out;
    },
    end() {
      const out: StreamEvent[] = [];
      blocks.endAll(out);
      return out;
    },
    finish() {
      const seen = items.filter((i) => i !== undefined);
      if (final) {
        const output = Array.isArray(final.output) && final.output.length ? final.output : seen;
        return { ...final, output };
      }
      // No terminal event: the stream was cut. Incomplete, so nothing it started may execute.
      if (!base && seen.length === 0) return {};
      return { ...(base ?? { object: 'response' }), status: 'incomplete', incomplete_details: { reason: 'stream_ended' }, output: seen };
    },
  };
}
