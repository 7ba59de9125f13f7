// Responses SSE: `event: <type>` + JSON data with the same `type`. response.created → per output item
// response.output_item.added, deltas (response.output_text.delta, response.reasoning_summary_text.delta,
// response.reasoning_text.delta, response.function_call_arguments.delta), response.output_item.done with the
// finished item → a terminal response.completed | response.incomplete | response.failed carrying the whole
// response; `error` may arrive mid-stream. The terminal response is the reassembled JSON; items seen in the stream
// fill in a missing output.
import { HarnessError } from '../contracts';
import { isObject, num, obj, str } from './json-text';
import { mapResponsesUsage } from './map-usage';
import { StreamBlocks } from './stream-blocks';
import type { StreamDecoder, StreamEvent } from '../contracts';

/** Keeps a partial item's text current, so a stream cut mid-way still yields what arrived. */
function appendPart(
  item: Record<string, unknown> | undefined,
  field: 'content' | 'summary',
  i: number,
  type: string,
  delta: string,
): void {
  if (!item) return;
  const parts = Array.isArray(item[field]) ? (item[field] as Record<string, unknown>[]).slice() : [];
  const part = { ...(parts[i] ?? { type }) };
  part.text = (str(part.text) ?? '') + delta;
  parts[i] = part;
  item[field] = parts;
}

/**
 * The `error` event. OpenAI documents it flat (`{type: 'error', code, message, param}`), but OpenAI itself, Azure
 * and proxies also send the usual error envelope nested (`{type: 'error', error: {type, code, message}}`). Each
 * field is read from the nested object first and the flat event second, so a decorated frame keeps what it has.
 */
export function responsesStreamError(ev: Record<string, unknown>): HarnessError {
  const nested = obj(ev.error);
  const message = str(nested.message) ?? str(ev.message) ?? 'no message given';
  const code = str(nested.code) ?? str(ev.code) ?? null;
  const type = str(nested.type) ?? null;
  return new HarnessError(
    'E_PROVIDER_STREAM',
    `The provider reported an error during the response: ${message}${code ? ` (code ${code})` : ''}. Try again later; if it keeps happening, check the account and model with the provider.`,
    { type, code },
  );
}

export function createResponsesStreamDecoder(): StreamDecoder {
  const blocks = new StreamBlocks();
  const items: Record<string, unknown>[] = [];
  const keysOf = new Map<number, Set<string>>();
  let base: Record<string, unknown> | undefined;
  let final: Record<string, unknown> | undefined;

  const reasoningSeen = new Set<string>();
  /** The reasoning item at `oi`; a server that skips output_item.added for it gets one made from the event's item_id. */
  const reasoningItem = (oi: number, ev: Record<string, unknown>): Record<string, unknown> | undefined => {
    const item = items[oi];
    if (item) return item.type === 'reasoning' ? item : undefined;
    return (items[oi] = {
      ...(str(ev.item_id) ? { id: ev.item_id } : {}),
      type: 'reasoning',
      summary: [],
      content: [],
    });
  };
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
        // Raw reasoning (gpt-oss and other open models; LM Studio, vLLM, Ollama): `content` parts of type
        // `reasoning_text` on the reasoning item, which is replayed verbatim like any other output item.
        case 'response.reasoning_text.delta': {
          const ci = num(ev.content_index) ?? 0;
          const key = `rt:${oi}:${ci}`;
          track(oi, key);
          const index = blocks.ensure(key, 'thinking', out);
          const d = str(ev.delta) ?? '';
          appendPart(reasoningItem(oi, ev), 'content', ci, 'reasoning_text', d);
          reasoningSeen.add(key);
          if (d) out.push({ type: 'thinking-delta', index, delta: d });
          break;
        }
        case 'response.reasoning_text.done': {
          const ci = num(ev.content_index) ?? 0;
          const key = `rt:${oi}:${ci}`;
          // Some servers send only the finished text, without deltas: show it then, once.
          const text = str(ev.text) ?? '';
          if (!reasoningSeen.has(key) && text) {
            reasoningSeen.add(key);
            track(oi, key);
            const index = blocks.ensure(key, 'thinking', out);
            appendPart(reasoningItem(oi, ev), 'content', ci, 'reasoning_text', text);
            out.push({ type: 'thinking-delta', index, delta: text });
          }
          blocks.end(key, out);
          break;
        }
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
          if (ev.type === 'response.failed') {
            // The documented form carries the error in `response.error`; some servers put it on the event itself.
            final.status = 'failed';
            if (!isObject(final.error) && isObject(ev.error)) final.error = ev.error;
          }
          blocks.endAll(out);
          const u = mapResponsesUsage(final.usage);
          if (u) out.push({ type: 'usage', usage: u });
          break;
        }
        case 'error':
          throw responsesStreamError(ev);
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
      return {
        ...(base ?? { object: 'response' }),
        status: 'incomplete',
        incomplete_details: { reason: 'stream_ended' },
        output: seen,
      };
    },
  };
}
