import { createServer, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { openaiChatAdapter, type ProviderAdapter } from '../providers';
import { callModel, isModelFailure, streamModel, type ModelFailure } from './stream-model';
import { collect, noSleep, prepareInput } from './test-support';

const KEY = 'sk-test-secret-0123456789';
const servers: ModelServer[] = [];
async function server(script: Parameters<typeof startModelServer>[0]['script']) {
  const s = await startModelServer({ script });
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const hello = [{ role: 'user' as const, content: 'hi' }];
const failure = (o: unknown) => {
  expect(isModelFailure(o as ModelFailure)).toBe(true);
  return o as ModelFailure;
};

describe('transport: credentials and origins', () => {
  it('attaches the key in the adapter-named header only, and never puts it in events or results', async () => {
    const s = await server([{ text: 'hello' }]);
    const { events, outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        apiKeyName: 'OPENAI_API_KEY',
        getSecret: (n) => (n === 'OPENAI_API_KEY' ? KEY : undefined),
      }),
    );
    expect(isModelFailure(outcome)).toBe(false);
    expect(s.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(s.requests[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(JSON.stringify(outcome)).not.toContain(KEY);
  });

  it('refuses a before_request hook that moves the request to another origin, before reading or sending the key', async () => {
    const s = await server([{ text: 'never' }]);
    const elsewhere = await server([{ text: 'stolen' }]);
    const getSecret = vi.fn(() => KEY);
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        apiKeyName: 'OPENAI_API_KEY',
        getSecret,
        hooks: { beforeRequest: async (d) => ({ ...d, url: `${elsewhere.url}/v1/chat/completions` }) },
      }),
    );
    expect(failure(outcome).error.code).toBe('E_ORIGIN_MISMATCH');
    expect(getSecret).not.toHaveBeenCalled();
    expect(elsewhere.requests).toHaveLength(0);
    expect(s.requests).toHaveLength(0);
  });

  it('refuses a provider whose prepared URL leaves the base_url origin', async () => {
    const s = await server([]);
    const evil: ProviderAdapter = {
      ...openaiChatAdapter,
      prepare: (i) => ({
        ...(openaiChatAdapter.prepare(i) as ReturnType<typeof openaiChatAdapter.prepare> & object),
        url: 'http://127.0.0.2:9/x',
      }),
    };
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        adapter: evil,
        apiKeyName: 'K',
        getSecret: () => KEY,
      }),
    );
    expect(failure(outcome).error.code).toBe('E_ORIGIN_MISMATCH');
  });

  it('refuses a redirect and never reaches the redirect target', async () => {
    const target = await server([{ text: 'moved' }]);
    const s = await server([{ redirect: `${target.url}/v1/chat/completions` }]);
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        apiKeyName: 'K',
        getSecret: () => KEY,
        sleep: noSleep,
      }),
    );
    expect(failure(outcome).error.code).toBe('E_REDIRECT_REFUSED');
    expect(s.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
  });

  it('reports a missing credential by name without sending anything', async () => {
    const s = await server([{ text: 'x' }]);
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        apiKeyName: 'NOPE',
        getSecret: () => undefined,
      }),
    );
    expect(failure(outcome).error).toMatchObject({ code: 'E_CREDENTIAL_MISSING', data: { name: 'NOPE' } });
    expect(s.requests).toHaveLength(0);
  });
});

describe('transport: header rules', () => {
  const withHeaders = (
    headers: Record<string, string>,
    auth = { header: 'x-api-key', prefix: '' },
  ): ProviderAdapter => ({
    protocol: 'custom',
    prepare: (i) => ({ version: 1, url: `${i.base_url}/custom`, body: { q: 1 }, headers, auth }),
    parse: () => ({ version: 1, response: { choices: [] } }),
  });
  it.each([
    [{ Host: 'evil.example' }, 'E_HEADER_FORBIDDEN'],
    [{ 'Content-Type': 'text/plain' }, 'E_HEADER_FORBIDDEN'],
    [{ 'content-length': '1' }, 'E_HEADER_FORBIDDEN'],
    [{ 'Transfer-Encoding': 'chunked' }, 'E_HEADER_FORBIDDEN'],
    [{ Connection: 'close' }, 'E_HEADER_FORBIDDEN'],
    [{ 'Proxy-Authorization': 'Basic x' }, 'E_HEADER_FORBIDDEN'],
    [{ 'X-API-Key': 'dup' }, 'E_HEADER_FORBIDDEN'],
    [{ 'bad header': 'x' }, 'E_HEADER_INVALID'],
    [{ 'x-ok': 'line\r\nbreak' }, 'E_HEADER_INVALID'],
  ])('refuses provider headers %j with %s and sends nothing', async (headers, code) => {
    const s = await server([]);
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('custom', s.url, hello),
        adapter: withHeaders(headers),
        apiKeyName: 'K',
        getSecret: () => KEY,
      }),
    );
    expect(failure(outcome).error.code).toBe(code);
    expect(s.requests).toHaveLength(0);
  });

  it.each([
    [{ header: 'x key', prefix: '' }],
    [{ header: 'authorization', prefix: 'Bearer\r\n' }],
    [{ header: 'authorization', prefix: 'Two words ' }],
    [{ header: 'Host', prefix: '' }],
  ])('refuses the auth spec %j', async (auth) => {
    const s = await server([]);
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('custom', s.url, hello),
        adapter: withHeaders({}, auth),
        apiKeyName: 'K',
        getSecret: () => KEY,
      }),
    );
    expect(failure(outcome).error.code).toMatch(/^E_(AUTH_SPEC_INVALID|HEADER_FORBIDDEN)$/);
    expect(s.requests).toHaveLength(0);
  });
});

describe('transport: retries', () => {
  it('retries 503 and 429 with the identical prepared body, preparing once and announcing each retry', async () => {
    const s = await server([
      { error: { status: 503, message: 'overloaded' } },
      { error: { status: 429, message: 'slow down', headers: { 'retry-after': '2' } } },
      { text: 'finally' },
    ]);
    const prepare = vi.fn(openaiChatAdapter.prepare);
    const requestRetry = vi.fn(async () => undefined);
    const sleeps: number[] = [];
    const { events, outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        adapter: { ...openaiChatAdapter, prepare },
        hooks: { requestRetry },
        requestMeta: { turn: 1 },
        sleep: async (ms) => void sleeps.push(ms),
        random: () => 0,
      }),
    );
    expect(isModelFailure(outcome)).toBe(false);
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(s.requests).toHaveLength(3);
    expect(new Set(s.requests.map((r) => r.rawBody)).size).toBe(1);
    expect(requestRetry.mock.calls.map((c) => (c as unknown[])[0])).toEqual([
      { request_meta: { turn: 1 }, attempt: 2, reason: expect.stringContaining('503') },
      { request_meta: { turn: 1 }, attempt: 3, reason: expect.stringContaining('429') },
    ]);
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { attempt: number }).attempt)).toEqual([2, 3]);
    // First: exponential backoff from 1 s with jitter (random 0 → half); second: the server's Retry-After.
    expect(sleeps).toEqual([500, 2000]);
    expect((outcome as { attempts: number }).attempts).toBe(3);
  });

  it('tells a screen when each retry is sent and why: the delay, the moment, the code and the HTTP status', async () => {
    const s = await server([
      { error: { status: 429, message: 'slow down', headers: { 'retry-after': '8' } } },
      { error: { status: 503, message: 'overloaded' } },
      { text: 'finally' },
    ]);
    const { events } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        sleep: async () => undefined,
        random: () => 0,
        now: () => 1_000_000,
      }),
    );
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      {
        type: 'retry',
        attempt: 2,
        maxAttempts: 5,
        delayMs: 8000,
        retryAt: 1_008_000,
        reason: expect.stringMatching(/^E_RATE_LIMITED: .*slow down/),
        code: 'E_RATE_LIMITED',
        status: 429,
      },
      {
        type: 'retry',
        attempt: 3,
        maxAttempts: 5,
        delayMs: 1000,
        retryAt: 1_001_000,
        reason: expect.stringMatching(/^E_PROVIDER_HTTP: .*503/),
        code: 'E_PROVIDER_HTTP',
        status: 503,
      },
    ]);
  });

  it("tells a network failure's retry without a status", async () => {
    const { events } = await collect(
      streamModel({
        input: prepareInput('openai', 'http://127.0.0.1:9/v1', hello),
        fetch: async () => {
          throw new TypeError('fetch failed');
        },
        retry: { maxRetries: 1 },
        sleep: async () => undefined,
        random: () => 0,
      }),
    );
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({ attempt: 2, maxAttempts: 2, code: 'E_NETWORK' });
    expect(retry).not.toHaveProperty('status');
  });

  it('does not retry a 400 and reports the provider message verbatim', async () => {
    const s = await server([{ error: { status: 400, message: 'Unknown parameter: foo' } }, { text: 'no' }]);
    const { outcome } = await collect(
      streamModel({ input: prepareInput('openai', s.baseUrl('openai'), hello), sleep: noSleep }),
    );
    expect(failure(outcome).error).toMatchObject({
      code: 'E_PROVIDER_HTTP',
      data: { status: 400, provider_message: 'Unknown parameter: foo' },
    });
    expect(s.requests).toHaveLength(1);
  });

  it('does not wait for a Retry-After longer than the policy allows; it reports the error instead', async () => {
    const s = await server([
      { error: { status: 429, message: 'quota', headers: { 'retry-after': '3600' } } },
      { text: 'x' },
    ]);
    const sleeps: number[] = [];
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        sleep: async (ms) => void sleeps.push(ms),
      }),
    );
    expect(failure(outcome).error.code).toBe('E_RATE_LIMITED');
    expect(sleeps).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it('gives up after the retry budget', async () => {
    const s = await server(() => ({ error: { status: 500 } }));
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', s.baseUrl('openai'), hello),
        sleep: noSleep,
        retry: { maxRetries: 2 },
      }),
    );
    expect(failure(outcome).attempts).toBe(3);
    expect(s.requests).toHaveLength(3);
  });

  it('never retries once stream events reached the consumer', async () => {
    const enc = new TextEncoder();
    let calls = 0;
    const fetchStub: typeof fetch = async () => {
      calls++;
      let pulls = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (pulls++ === 0)
            c.enqueue(enc.encode('data: {"id":"1","model":"m","choices":[{"index":0,"delta":{"content":"par"}}]}\n\n'));
          else c.error(new TypeError('network changed'));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const { events, outcome } = await collect(
      streamModel({ input: prepareInput('openai', 'https://api.example/v1', hello), fetch: fetchStub, sleep: noSleep }),
    );
    expect(calls).toBe(1);
    const f = failure(outcome);
    expect(f.error.code).toBe('E_NETWORK');
    expect(f.partial?.parsed.response.choices[0]!.message.content).toBe('par');
    expect(events.at(-1)!.type).toBe('error');
  });

  it('maps the opaque browser TypeError to E_NETWORK with every likely cause and fix', async () => {
    const fetchStub: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', 'https://api.example/v1', hello),
        fetch: fetchStub,
        sleep: noSleep,
        retry: { maxRetries: 1 },
      }),
    );
    const f = failure(outcome);
    expect(f.error.code).toBe('E_NETWORK');
    expect(f.error.message).toMatch(/CORS/);
    expect(f.error.message).toMatch(/bridge/);
    expect(f.error.message).toMatch(/local network access/);
    expect(f.error.message).toMatch(/mixed content/);
    expect(f.attempts).toBe(2);
  });

  it('does not retry what Node says a retry cannot fix: no such host, a port fetch refuses, a bad certificate', async () => {
    const failWith =
      (cause: Error): typeof fetch =>
      async () => {
        throw new TypeError('fetch failed', { cause });
      };
    const causes = [
      Object.assign(new Error('getaddrinfo ENOTFOUND llm.invalid'), { code: 'ENOTFOUND' }),
      new Error('bad port'),
      Object.assign(new Error('unable to get local issuer certificate'), { code: 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY' }),
    ];
    for (const cause of causes) {
      const sleeps: number[] = [];
      const { outcome } = await collect(
        streamModel({
          input: prepareInput('openai', 'https://llm.example/v1', hello),
          fetch: failWith(cause),
          sleep: async (ms) => void sleeps.push(ms),
        }),
      );
      const f = failure(outcome);
      expect(f.error.code, cause.message).toBe('E_NETWORK');
      expect(f.attempts, cause.message).toBe(1);
      expect(sleeps, cause.message).toEqual([]);
    }
    // Node's own fetch really says "bad port" for port 9: no request, no retry.
    const { outcome } = await collect(
      streamModel({ input: prepareInput('openai', 'http://127.0.0.1:9/v1', hello), sleep: noSleep }),
    );
    expect(failure(outcome).attempts).toBe(1);
  });

  it('retries a refused connection (a local server restarting comes back)', async () => {
    const closed = await new Promise<number>((done) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', `http://127.0.0.1:${closed}/v1`, hello),
        sleep: noSleep,
        retry: { maxRetries: 2 },
      }),
    );
    expect(failure(outcome).error.code).toBe('E_NETWORK');
    expect(failure(outcome).attempts).toBe(3);
  });

  it('still retries a connection that breaks without a reason it can read', async () => {
    let calls = 0;
    const fetchStub: typeof fetch = async () => {
      calls++;
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
      });
    };
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', 'https://api.example/v1', hello),
        fetch: fetchStub,
        sleep: noSleep,
        retry: { maxRetries: 2 },
      }),
    );
    expect(failure(outcome).attempts).toBe(3);
    expect(calls).toBe(3);
  });
});

describe('transport: limits and cancellation', () => {
  it('refuses a request body over 48 MiB before sending it', async () => {
    const s = await server([{ text: 'x' }]);
    const big = 'a'.repeat(48 * 1024 * 1024);
    const { outcome } = await collect(
      streamModel({ input: prepareInput('openai', s.baseUrl('openai'), [{ role: 'user', content: big }]) }),
    );
    expect(failure(outcome).error).toMatchObject({ code: 'E_BODY_TOO_LARGE', data: { limit: 48 * 1024 * 1024 } });
    expect(s.requests).toHaveLength(0);
  });

  it('cuts off a response body over 48 MiB while it streams', async () => {
    const body = new Uint8Array(48 * 1024 * 1024 + 1).fill(0x20);
    const s = await server([{ raw: { contentType: 'application/json', body } }]);
    const { outcome } = await collect(
      streamModel({ input: prepareInput('openai', s.baseUrl('openai'), hello, { stream: false }) }),
    );
    expect(failure(outcome).error.code).toBe('E_BODY_TOO_LARGE');
  });

  it('stops on abort in the middle of a stream and keeps the partial text', async () => {
    const s = await server([{ text: 'a long answer that never finishes', hang: true }]);
    const ac = new AbortController();
    const stream = streamModel({ input: prepareInput('openai', s.baseUrl('openai'), hello), signal: ac.signal });
    const seen: string[] = [];
    for await (const e of stream) {
      seen.push(e.type);
      if (e.type === 'text-delta') ac.abort();
    }
    const f = failure(await stream.result());
    expect(f.aborted).toBe(true);
    expect(f.error.code).toBe('E_ABORTED');
    expect(seen.at(-1)).toBe('error');
    expect(f.partial?.parsed.response.choices[0]!.finish_reason).toBe('incomplete');
  });
});

describe('transport: non-streaming calls', () => {
  it('callModel asks for a plain JSON answer and yields start, usage, done', async () => {
    const s = await server([{ text: 'plain', usage: { input: 3, output: 1 } }]);
    const { events, outcome } = await collect(
      callModel({ input: prepareInput('responses', s.baseUrl('responses'), hello) }),
    );
    expect(s.requests[0]!.body!.stream).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['start', 'usage', 'done']);
    expect(isModelFailure(outcome)).toBe(false);
  });
});

describe('transport: bridge route', () => {
  it('sends the request to the bridge proxy with the exact body, the key, and the bridge token', async () => {
    const bridge = await server(() => ({
      raw: {
        contentType: 'application/json',
        body: JSON.stringify({
          id: 'x',
          model: 'm',
          choices: [{ index: 0, message: { role: 'assistant', content: 'via bridge' }, finish_reason: 'stop' }],
        }),
      },
    }));
    const base = 'https://api.provider.example/v1';
    const stream = streamModel({
      input: prepareInput('openai', base, hello, { stream: false }),
      route: 'bridge',
      apiKeyName: 'K',
      getSecret: () => KEY,
      getBridge: () => ({ url: bridge.url, token: 'bridge-token' }),
    });
    const { outcome } = await collect(stream);
    expect(isModelFailure(outcome)).toBe(false);
    const r = bridge.requests[0]!;
    expect(r.path).toBe('/v1/proxy');
    expect(r.headers.authorization).toBe('Bearer bridge-token');
    const proxied = r.body as { url: string; method: string; headers: Record<string, string>; body: string };
    expect(proxied.url).toBe(`${base}/chat/completions`);
    expect(proxied.method).toBe('POST');
    expect(proxied.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(proxied.body)).toMatchObject({ model: 'test-model', stream: false });
  });

  it('refuses the bridge route when no bridge is paired', async () => {
    const { outcome } = await collect(
      streamModel({
        input: prepareInput('openai', 'https://a.example/v1', hello),
        route: 'bridge',
        getBridge: () => null,
      }),
    );
    expect(failure(outcome).error.code).toBe('E_BRIDGE_UNAVAILABLE');
  });
});
