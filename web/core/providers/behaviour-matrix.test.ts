// The behaviour matrix every built-in adapter joins (STYLE.md §13), against the scripted model server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn, type WireProtocol } from '../../../e2e/model-server';
import { isModelFailure, streamModel, type ModelFailure, type ModelResult } from '../transport';
import { collect, noSleep, prepareInput } from '../transport/test-support';
import { MISSING_TOOL_RESULT } from './history';
import type { AssistantMessage, Message, StreamEvent } from '../contracts/messages';

const PROTOCOLS: WireProtocol[] = ['openai', 'deepseek', 'anthropic', 'responses'];
const KEY_HEADER: Record<WireProtocol, string> = {
  openai: 'authorization',
  deepseek: 'authorization',
  anthropic: 'x-api-key',
  responses: 'authorization',
};

let queue: ScriptTurn[] = [];
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({
    script: () => queue.shift() ?? { error: { status: 500, message: 'script empty' } },
  });
});
afterAll(() => server.close());

async function call(
  protocol: WireProtocol,
  history: Message[],
  turn: ScriptTurn,
  extra: { stream?: boolean; signal?: AbortSignal } = {},
) {
  queue = [turn];
  const before = server.requests.length;
  const stream = streamModel({
    input: prepareInput(protocol, server.baseUrl(protocol), history, {
      stream: extra.stream ?? true,
      tools: [
        {
          name: 'read',
          description: 'Read a file',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    }),
    apiKeyName: 'KEY',
    getSecret: () => 'sk-matrix-key-1234567',
    sleep: noSleep,
    retry: { maxRetries: 0 },
    ...(extra.signal ? { signal: extra.signal } : {}),
  });
  const r = await collect(stream);
  return { ...r, request: server.requests[before] };
}
const ok = (o: unknown) => {
  expect(isModelFailure(o as ModelResult)).toBe(false);
  return (o as ModelResult).parsed.response.choices[0]!;
};
const textOf = (events: StreamEvent[]) => events.flatMap((e) => (e.type === 'text-delta' ? [e.delta] : [])).join('');

describe.each(PROTOCOLS)('behaviour matrix: %s', (protocol) => {
  it.each([true, false])('answers text and a tool call, streaming=%s, with the key in its header', async (stream) => {
    const { outcome, request } = await call(
      protocol,
      [{ role: 'user', content: 'go' }],
      { text: 'Reading.', thinking: 'plan', toolCalls: [{ name: 'read', arguments: { path: 'a.txt' } }] },
      { stream },
    );
    const choice = ok(outcome);
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Reading.');
    expect(choice.message.tool_calls).toHaveLength(1);
    expect(JSON.parse(choice.message.tool_calls![0]!.function.arguments)).toEqual({ path: 'a.txt' });
    expect(request!.headers[KEY_HEADER[protocol]]).toMatch(/sk-matrix-key-1234567$/);
    expect(request!.body!.stream).toBe(stream);
  });

  it('stops on abort mid-stream with E_ABORTED and the partial text', async () => {
    const ac = new AbortController();
    queue = [{ text: 'one two three four five six seven eight', hang: true }];
    const stream = streamModel({
      input: prepareInput(protocol, server.baseUrl(protocol), [{ role: 'user', content: 'go' }]),
      signal: ac.signal,
      retry: { maxRetries: 0 },
    });
    const events: StreamEvent[] = [];
    for await (const e of stream) {
      events.push(e);
      if (e.type === 'text-delta') ac.abort();
    }
    const f = (await stream.result()) as ModelFailure;
    expect(f.aborted).toBe(true);
    expect(f.error.code).toBe('E_ABORTED');
    const partial = f.partial!.parsed.response.choices[0]!;
    expect(partial.finish_reason).toBe('incomplete');
    expect(textOf(events).startsWith(partial.message.content ?? '')).toBe(true);
    expect(partial.message.content).toMatch(/^one/);
    expect(events.filter((e) => e.type === 'done')).toHaveLength(0);
    expect(events.at(-1)!.type).toBe('error');
  });

  it('reports an empty stream as E_PROVIDER_EMPTY', async () => {
    const body = protocol === 'openai' || protocol === 'deepseek' ? 'data: [DONE]\n\n' : ': keep-alive\n\n';
    const { outcome } = await call(protocol, [{ role: 'user', content: 'go' }], {
      raw: { contentType: 'text/event-stream', body },
    });
    expect((outcome as ModelFailure).error.code).toBe('E_PROVIDER_EMPTY');
  });

  it('reports a context overflow error body as E_CONTEXT_OVERFLOW without retrying', async () => {
    const message =
      protocol === 'anthropic'
        ? 'prompt is too long: 210000 tokens > 200000 maximum'
        : "This model's maximum context length is 65536 tokens.";
    const { outcome } = await call(protocol, [{ role: 'user', content: 'go' }], { error: { status: 400, message } });
    expect((outcome as ModelFailure).error).toMatchObject({
      code: 'E_CONTEXT_OVERFLOW',
      data: { provider_message: message },
    });
  });

  it('answers a tool call that has no result with a synthetic error result', async () => {
    const dangling: AssistantMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_lost', type: 'function', function: { name: 'read', arguments: '{"path":"x"}' } }],
    };
    const { outcome, request } = await call(
      protocol,
      [{ role: 'user', content: 'go' }, dangling, { role: 'user', content: 'and now?' }],
      { text: 'ok' },
    );
    ok(outcome);
    const wire = JSON.stringify(request!.body);
    expect(wire).toContain('call_lost');
    expect(wire).toContain(MISSING_TOOL_RESULT.slice(0, 30));
  });

  it('decodes a multi-byte text split across network reads', async () => {
    const text = 'héllo 世界 🙂🙂 done';
    const { events, outcome } = await call(protocol, [{ role: 'user', content: 'go' }], { text });
    expect(textOf(events)).toBe(text);
    expect(ok(outcome).message.content).toBe(text);
  });
});

describe('behaviour matrix: handing a session from one provider to another', () => {
  it.each(PROTOCOLS.flatMap((from) => PROTOCOLS.filter((to) => to !== from).map((to) => [from, to] as const)))(
    '%s → %s drops foreign replay state and says so once',
    async (from, to) => {
      const history: Message[] = [{ role: 'user', content: 'start' }];
      const first = await call(from, history, {
        text: 'Looking.',
        thinking: 'secret-plan',
        toolCalls: [{ name: 'read', arguments: { path: 'a' } }],
      });
      const assistant = ok(first.outcome).message;
      const tool = assistant.tool_calls![0]!;
      const continued: Message[] = [...history, assistant, { role: 'tool', tool_call_id: tool.id, content: 'file a' }];
      const second = await call(to, continued, { text: 'Done.' });
      const r = second.outcome as ModelResult;
      expect(ok(r).message.content).toBe('Done.');
      expect(r.notices).toEqual([expect.objectContaining({ code: 'N_REPLAY_NOT_LOSSLESS' })]);
      const body = second.request!.body!;
      const wire = JSON.stringify(body.messages ?? body.input);
      // No opaque or provider-specific reasoning crosses over: no signatures, no encrypted content, no thinking text.
      expect(wire).not.toContain('secret-plan');
      expect(wire).not.toMatch(/"signature"|encrypted_content|reasoning_content/);
      // The tool exchange itself survives in the new protocol's shape.
      expect(wire).toContain(tool.id);
      expect(wire).toContain('file a');
      // After the new provider answered once, the notice stops.
      const third = await call(to, [...continued, ok(r).message, { role: 'user', content: 'more' }], { text: 'More.' });
      expect((third.outcome as ModelResult).notices).toBeUndefined();
    },
  );
});
