// The provider `browser` as the loop's stream function, on the tiny model: the JSON-protocol request of the loop
// streams back as text events and ends in `done` with an answer the protocol parser accepts; abort mid-answer ends
// in an `E_ABORTED` error carrying the text so far; a file that is not a GGUF is refused before llama.cpp.
import { afterAll, describe, expect, it } from 'vitest';
import wasmPath from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { makeTinyGguf, STEERED_PATH } from '../../../scripts/make-tiny-gguf.mjs';
import { jsonRequestHistory, parseJsonAction } from '../agent/json-actions';
import type { ModelCall } from '../agent/types';
import type { Message, StreamEvent } from '../contracts/messages';
import { coreFileTools } from '../tools/builtin';
import { BrowserModelEngine } from './engine';
import { browserStream } from './stream';

const engine = new BrowserModelEngine();
const wasmUrl = new URL(wasmPath, location.href).href;
const tools = coreFileTools().map((t) => t.schema);
const tiny = new File([makeTinyGguf()], 'tiny.gguf', { lastModified: 1 });

const start: Message[] = [
  { role: 'system', content: 'You are i.' },
  { role: 'user', content: 'read a.txt' },
];

function call(signal = new AbortController().signal, messages: Message[] = start): ModelCall {
  const history = jsonRequestHistory(messages, tools);
  return {
    input: {
      version: 1,
      protocol: 'browser',
      base_url: '',
      model: 'tiny.gguf',
      history,
      max_tokens: 3000,
      compact: false,
      tools: [],
      plugin_tools: [],
      use_max_tokens: false,
      extra_body: {},
      stream: true,
    },
    hooks: {},
    requestMeta: {},
    signal,
  };
}

async function collect(events: AsyncIterable<StreamEvent>, onEvent?: (e: StreamEvent) => void) {
  const all: StreamEvent[] = [];
  for await (const e of events) {
    all.push(e);
    onEvent?.(e);
  }
  return all;
}

describe('the browser provider stream', () => {
  afterAll(() => engine.unload());

  it('streams the answer as text events and ends with a parsed JSON action and usage', async () => {
    const stream = browserStream({ model: 'tiny.gguf', contextWindow: 16384, open: async () => tiny, wasmUrl, engine });
    const events = await collect(stream(call()));
    expect(events[0]).toEqual({ type: 'start', protocol: 'browser', model: 'tiny.gguf' });
    const text = events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');
    const done = events.at(-1)!;
    expect(done.type).toBe('done');
    if (done.type !== 'done') return;
    expect(done.result.parsed.response.choices[0]!.message.content).toBe(text);
    expect(parseJsonAction(text, new Set(tools.map((t) => t.name))).ok).toBe(true);
    expect(done.result.parsed.response.usage!.output_tokens).toBeGreaterThan(0);
    expect(engine.loaded?.nCtx).toBe(16384);
  }, 60_000);

  it('runs the tiny model the way the e2e turn needs: read first, final once a tool result is in its context', async () => {
    const stream = browserStream({ model: 'tiny.gguf', contextWindow: 16384, open: async () => tiny, wasmUrl, engine });
    const names = new Set(tools.map((t) => t.name));
    const answer = async (messages: Message[]) => {
      const last = (await collect(stream(call(undefined, messages)))).at(-1)!;
      if (last.type !== 'done') throw new Error(JSON.stringify(last));
      return last.result.parsed.response.choices[0]!.message.content ?? '';
    };
    const first = await answer(start);
    const action = parseJsonAction(first, names);
    expect(action.ok && action.action.type === 'tool_call' && action.action.name).toBe('read');
    // The path its weights spell, the file the e2e creates; then a final with text once the result is in context.
    expect(action.ok && action.action.type === 'tool_call' && action.action.arguments).toEqual({ path: STEERED_PATH });
    const withResult: Message[] = [
      ...start,
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read', arguments: JSON.stringify({ path: STEERED_PATH }) } },
        ],
        _provider: { protocol: 'browser', model: 'tiny.gguf', tool_protocol: 'json', json_reply: first },
      },
      { role: 'tool', tool_call_id: 'c1', content: '     1\tthe answer is 42' },
    ];
    const second = parseJsonAction(await answer(withResult), names);
    expect(second.ok && second.action.type === 'final' && second.action.content).toBe('hi');
  }, 60_000);

  it('stops mid-answer on abort with E_ABORTED and the partial text', async () => {
    const stop = new AbortController();
    const stream = browserStream({ model: 'tiny.gguf', contextWindow: 16384, open: async () => tiny, wasmUrl, engine });
    let deltas = 0;
    const events = await collect(stream(call(stop.signal)), (e) => {
      if (e.type === 'text-delta' && ++deltas === 5) stop.abort();
    });
    const last = events.at(-1)!;
    expect(last.type).toBe('error');
    if (last.type !== 'error') return;
    expect(last.error.code).toBe('E_ABORTED');
    expect(deltas).toBeLessThan(40);
    expect(last.result?.parsed.response.choices[0]!.message.content?.length).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a stored file that is not a GGUF, and a window larger than the model was trained for', async () => {
    const bad = browserStream({
      model: 'x.gguf',
      contextWindow: 16384,
      open: async () => new File(['<html>'], 'x.gguf'),
      wasmUrl,
      engine,
    });
    const e1 = (await collect(bad(call()))).at(-1)!;
    expect(e1.type === 'error' && e1.error.code).toBe('E_GGUF_NOT_GGUF');
    const wide = browserStream({ model: 'tiny.gguf', contextWindow: 65536, open: async () => tiny, wasmUrl, engine });
    const e2 = (await collect(wide(call()))).at(-1)!;
    expect(e2.type === 'error' && e2.error.code).toBe('E_BROWSER_MODEL_CONTEXT');
  });
});
