import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { presetContextWindow } from '../providers';
import { findServerContextWindow, parseModelListing, parseOllamaShow } from './list-models';

let raw: Server | undefined;
afterEach(async () => {
  if (raw) await new Promise<void>((r) => raw!.close(() => r()));
  raw = undefined;
});

/** A server answering by path; records what was asked. */
async function serve(routes: Record<string, unknown>, asked: string[] = []): Promise<string> {
  raw = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      asked.push(`${req.method} ${req.url}${body ? ` ${body}` : ''}`);
      const answer = routes[`${req.method} ${req.url}`];
      if (answer === undefined) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => raw!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
}

const config = (base_url: string) => ({
  protocol: 'openai',
  base_url,
  api_key_env: null,
  route: null,
  provider: null,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string }) => e,
  );

describe('parseModelListing: the window each server shape states', () => {
  it('reads OpenRouter: context_length, and top_provider.context_length when the top level has none', () => {
    expect(
      parseModelListing({
        data: [
          { id: 'anthropic/claude-sonnet-4', context_length: 200000, top_provider: { context_length: 64000 } },
          { id: 'meta/llama', top_provider: { context_length: 131072 } },
        ],
      }),
    ).toEqual([
      { id: 'anthropic/claude-sonnet-4', context_window: 200000, context_field: 'context_length' },
      { id: 'meta/llama', context_window: 131072, context_field: 'top_provider.context_length' },
    ]);
  });

  it('reads vLLM: max_model_len', () => {
    expect(parseModelListing({ object: 'list', data: [{ id: 'Qwen/Qwen3-8B', max_model_len: 32768 }] })).toEqual([
      { id: 'Qwen/Qwen3-8B', context_window: 32768, context_field: 'max_model_len' },
    ]);
  });

  it("reads LM Studio's own API: max_context_length", () => {
    expect(parseModelListing({ data: [{ id: 'qwen2.5-7b', type: 'llm', max_context_length: 32768 }] })).toEqual([
      { id: 'qwen2.5-7b', context_window: 32768, context_field: 'max_context_length' },
    ]);
  });

  it('lists a model without a size (OpenAI, Ollama /v1, llama.cpp) with no window, never a guessed one', () => {
    expect(parseModelListing({ data: [{ id: 'gpt-4.1', object: 'model', owned_by: 'openai' }] })).toEqual([
      { id: 'gpt-4.1' },
    ]);
  });

  it('leaves out sizes that are not whole numbers in 1..100 M, keeping the model', () => {
    const listed = parseModelListing({
      data: [
        { id: 'a', context_length: '128000' },
        { id: 'b', context_length: -1 },
        { id: 'c', context_length: 0 },
        { id: 'd', context_length: 1.5 },
        { id: 'e', context_length: 1e12 },
        { id: 'f', context_length: null, max_model_len: 8192 },
        { id: 'g', top_provider: 'x' },
      ],
    });
    expect(listed).toEqual([
      { id: 'a' },
      { id: 'b' },
      { id: 'c' },
      { id: 'd' },
      { id: 'e' },
      { id: 'f', context_window: 8192, context_field: 'max_model_len' },
      { id: 'g' },
    ]);
  });

  it('skips entries without a usable id and keeps the first of a repeated one', () => {
    expect(
      parseModelListing({
        data: [null, 7, { id: 3 }, { id: '' }, { id: 'x', context_length: 10 }, { id: 'x', context_length: 20 }],
      }),
    ).toEqual([{ id: 'x', context_window: 10, context_field: 'context_length' }]);
  });

  it('refuses an answer without a data array with E_MODELS_RESPONSE', () => {
    for (const bad of [null, 'text', [], { models: [] }, { data: {} }]) {
      expect(() => parseModelListing(bad)).toThrow(expect.objectContaining({ code: 'E_MODELS_RESPONSE' }));
    }
  });
});

describe('parseOllamaShow', () => {
  it("takes the Modelfile's num_ctx first: the window the model runs with", () => {
    expect(
      parseOllamaShow({
        parameters: 'stop "<|im_end|>"\nnum_ctx                        8192',
        model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 },
      }),
    ).toEqual({ window: 8192, field: 'num_ctx' });
  });

  it('else the architecture’s trained length, model_info["<arch>.context_length"]', () => {
    expect(
      parseOllamaShow({
        model_info: { 'general.architecture': 'llama', 'clip.context_length': 77, 'llama.context_length': 131072 },
      }),
    ).toEqual({ window: 131072, field: 'llama.context_length' });
    expect(parseOllamaShow({ model_info: { 'gemma3.context_length': 131072 } })).toEqual({
      window: 131072,
      field: 'gemma3.context_length',
    });
  });

  it('is null when it states no size, and refuses an answer that is not an object', () => {
    expect(parseOllamaShow({ modelfile: '…' })).toBeNull();
    expect(parseOllamaShow({ model_info: { 'llama.context_length': 'big' }, parameters: 'num_ctx x' })).toBeNull();
    for (const bad of [null, 'x', [1]]) {
      expect(() => parseOllamaShow(bad)).toThrow(expect.objectContaining({ code: 'E_MODEL_INFO_RESPONSE' }));
    }
  });
});

describe('findServerContextWindow', () => {
  it('finds the model in GET {base}/models and says which field and request answered', async () => {
    const base = await serve({ 'GET /v1/models': { data: [{ id: 'm', context_length: 65536 }] } });
    expect(
      await findServerContextWindow({ config: config(`${base}/v1`), getKey: () => undefined, model: 'm' }),
    ).toEqual({ window: 65536, field: 'context_length', from: 'GET /v1/models' });
  });

  it('is null for a model the list does not size or does not list', async () => {
    const base = await serve({ 'GET /v1/models': { data: [{ id: 'm' }, { id: 'n', context_length: 10 }] } });
    for (const model of ['m', 'other'])
      expect(await findServerContextWindow({ config: config(`${base}/v1`), getKey: () => undefined, model })).toBe(
        null,
      );
  });

  it("asks Ollama's POST {root}/api/show when its /v1 list has no size", async () => {
    const asked: string[] = [];
    const base = await serve(
      {
        'GET /v1/models': { object: 'list', data: [{ id: 'qwen3:8b', object: 'model', owned_by: 'library' }] },
        'POST /api/show': { model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } },
      },
      asked,
    );
    expect(
      await findServerContextWindow({
        config: config(`${base}/v1`),
        getKey: () => undefined,
        model: 'qwen3:8b',
        server: 'ollama',
      }),
    ).toEqual({ window: 40960, field: 'qwen3.context_length', from: 'POST /api/show' });
    expect(asked).toEqual(['GET /v1/models', 'POST /api/show {"model":"qwen3:8b"}']);
  });

  it("asks LM Studio's GET {root}/api/v0/models when its /v1 list has no size", async () => {
    const base = await serve({
      'GET /v1/models': { data: [{ id: 'qwen2.5-7b' }] },
      'GET /api/v0/models': { object: 'list', data: [{ id: 'qwen2.5-7b', max_context_length: 32768 }] },
    });
    expect(
      await findServerContextWindow({
        config: config(`${base}/v1`),
        getKey: () => undefined,
        model: 'qwen2.5-7b',
        server: 'lm-studio',
      }),
    ).toEqual({ window: 32768, field: 'max_context_length', from: 'GET /api/v0/models' });
  });

  it('turns bad answers into codes with a sentence: not JSON, no data array, a bad /api/show', async () => {
    const base = await serve({
      'GET /html/models': '<html>login</html>',
      'GET /empty/models': { models: [] },
      'GET /v1/models': { data: [{ id: 'q' }] },
      'POST /api/show': '[1, 2]',
      'GET /api/v0/models': { nothing: true },
    });
    const find = (path: string, server?: 'ollama' | 'lm-studio') =>
      refusal(findServerContextWindow({ config: config(base + path), getKey: () => undefined, model: 'q', server }));
    expect(await find('/html')).toMatchObject({ code: 'E_MODELS_RESPONSE', message: expect.stringMatching(/JSON/) });
    expect(await find('/empty')).toMatchObject({ code: 'E_MODELS_RESPONSE', message: expect.stringMatching(/data/) });
    expect(await find('/v1', 'ollama')).toMatchObject({
      code: 'E_MODEL_INFO_RESPONSE',
      message: expect.stringMatching(/\/api\/show.*type the context window yourself/),
    });
    expect(await find('/v1', 'lm-studio')).toMatchObject({ code: 'E_MODEL_INFO_RESPONSE' });
  });
});

describe('presetContextWindow', () => {
  it("knows the presets' models, dated snapshots by their alias, and nothing else", () => {
    expect(presetContextWindow('openai', 'gpt-4.1')).toMatchObject({ window: 1_047_576, source: 'OpenAI model pages' });
    expect(presetContextWindow('openai-responses', 'gpt-4.1-2025-04-14')?.window).toBe(1_047_576);
    expect(presetContextWindow('anthropic', 'claude-3-5-haiku-20241022')?.window).toBe(200_000);
    expect(presetContextWindow('deepseek', 'deepseek-chat')?.window).toBe(128_000);
    expect(presetContextWindow('openai', 'gpt-unknown')).toBeUndefined();
    expect(presetContextWindow('ollama', 'gpt-4.1')).toBeUndefined();
    expect(presetContextWindow('custom', 'gpt-4.1')).toBeUndefined();
  });
});
