import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { listProviderModels, MODEL_LIST_MAX_BYTES, parseModelList } from './list-models';

let server: ModelServer | undefined;
let raw: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (raw) await new Promise<void>((r) => raw!.close(() => r()));
  raw = undefined;
});

const config = (protocol: string, base_url: string, api_key_env: string | null = null) => ({
  protocol,
  base_url,
  api_key_env,
  route: null,
  provider: null,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string }) => e,
  );

/** A bare server for answers the scripted server does not give (a huge list, silence). */
async function rawServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  raw = createServer(handler);
  await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
}

describe('listProviderModels', () => {
  it('lists an OpenAI-compatible server with GET {base}/models and a bearer key, sorted and unique', async () => {
    server = await startModelServer({ script: [], models: ['gpt-b', 'gpt-a', 'gpt-b'] });
    const ids = await listProviderModels({
      config: config('openai', server.baseUrl('openai'), 'OPENAI_API_KEY'),
      getKey: () => 'sk-test-0001',
    });
    expect(ids).toEqual(['gpt-a', 'gpt-b']);
    expect(server.requests[0]).toMatchObject({
      method: 'GET',
      path: '/v1/models',
      headers: { authorization: 'Bearer sk-test-0001' },
    });
  });

  it('lists a local server without a key (Ollama, LM Studio and llama.cpp speak the same /v1/models)', async () => {
    server = await startModelServer({ script: [], models: ['qwen3:8b'] });
    expect(
      await listProviderModels({ config: config('openai', server.baseUrl('openai')), getKey: () => undefined }),
    ).toEqual(['qwen3:8b']);
    expect(server.requests[0]!.headers).not.toHaveProperty('authorization');
  });

  it('lists Anthropic with GET /v1/models, x-api-key, the version and the browser-access header', async () => {
    server = await startModelServer({ script: [], models: ['claude-b', 'claude-a'] });
    const ids = await listProviderModels({
      config: config('anthropic', server.baseUrl('anthropic'), 'ANTHROPIC_API_KEY'),
      getKey: () => 'sk-ant-1',
    });
    expect(ids).toEqual(['claude-a', 'claude-b']);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/models',
      headers: { 'x-api-key': 'sk-ant-1', 'anthropic-dangerous-direct-browser-access': 'true' },
    });
    expect(server.requests[0]!.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('maps a refused key to E_PROVIDER_AUTH with the provider message, like a model call', async () => {
    const base = await rawServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad key' } }));
    });
    const e = await refusal(listProviderModels({ config: config('openai', base, 'K'), getKey: () => 'sk-x' }));
    expect(e).toMatchObject({ code: 'E_PROVIDER_AUTH' });
    expect(e?.message).toContain('bad key');
  });

  it('refuses before any request when the named key is missing', async () => {
    server = await startModelServer({ script: [], models: ['m'] });
    const e = await refusal(
      listProviderModels({
        config: config('openai', server.baseUrl('openai'), 'MISSING_KEY'),
        getKey: () => undefined,
      }),
    );
    expect(e).toMatchObject({ code: 'E_CREDENTIAL_MISSING' });
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a custom protocol (a provider worker has no list)', async () => {
    const e = await refusal(
      listProviderModels({ config: config('my-proto', 'http://127.0.0.1:1'), getKey: () => undefined }),
    );
    expect(e).toMatchObject({ code: 'E_MODELS_UNSUPPORTED' });
  });

  it('stops reading a list larger than the cap', async () => {
    const base = await rawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"data":[{"id":"${'x'.repeat(MODEL_LIST_MAX_BYTES)}"}]}`);
    });
    expect(
      await refusal(listProviderModels({ config: config('openai', base), getKey: () => undefined })),
    ).toMatchObject({ code: 'E_MODELS_TOO_LARGE' });
  });

  it('gives up on a silent server at the deadline', async () => {
    const base = await rawServer(() => undefined);
    const e = await refusal(
      listProviderModels({ config: config('openai', base), getKey: () => undefined, timeoutMs: 100 }),
    );
    expect(e).toMatchObject({ code: 'E_MODELS_TIMEOUT' });
  });

  it('refuses a redirect instead of following it with the key', async () => {
    const base = await rawServer((_req, res) => {
      res.writeHead(307, { location: 'http://example.invalid/models' });
      res.end();
    });
    expect(
      await refusal(listProviderModels({ config: config('openai', base, 'K'), getKey: () => 'sk-x' })),
    ).toMatchObject({ code: 'E_REDIRECT_REFUSED' });
  });

  it('goes through the bridge proxy as a GET when the route is bridge', async () => {
    let seen: unknown;
    const base = await rawServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen = { path: req.url, auth: req.headers.authorization, body: JSON.parse(body) as unknown };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: [{ id: 'via-bridge' }] }));
      });
    });
    const ids = await listProviderModels({
      config: { ...config('openai', 'https://api.example.com/v1', 'K'), route: 'bridge' },
      getKey: () => 'sk-x',
      getBridge: () => ({ url: base, token: 'tok' }),
    });
    expect(ids).toEqual(['via-bridge']);
    expect(seen).toEqual({
      path: '/v1/proxy',
      auth: 'Bearer tok',
      body: { url: 'https://api.example.com/v1/models', method: 'GET', headers: { authorization: 'Bearer sk-x' } },
    });
  });
});

describe('parseModelList', () => {
  it('keeps string ids only and refuses an answer without data', () => {
    expect(parseModelList({ data: [{ id: 'a' }, { id: 3 }, null, { id: '' }, { id: 'bad\nname' }] })).toEqual(['a']);
    expect(() => parseModelList({ models: [] })).toThrow(/data/);
  });
});
