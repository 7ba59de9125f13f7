// The smoke policy (seed 000 §10) as the app's Test connection and `i smoke` apply it: no tools, the output cap,
// tool calls refused, the cache module observing into statistics of its own.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { parseModelConfig } from '../config';
import { createIdbStatsStore, createMemoryStatsStore } from '../modules';
import { openHarnessDb } from '../storage';
import { appSmokeStats, runSmoke, smokeOutputCap, testConnection } from './index';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: ScriptTurn[]) => (server = await startModelServer({ script }));

describe('smoke policy', () => {
  it('sends one request without tools, capped at 32 tokens, and reports latency, usage and the reply', async () => {
    const s = await start([{ text: 'ok', usage: { input: 12, output: 1 } }]);
    let t = 0;
    const report = await testConnection(
      {
        protocol: 'anthropic',
        base_url: s.baseUrl('anthropic'),
        model: 'claude-test',
        api_key_env: 'ANTHROPIC_API_KEY',
      },
      { getSecret: () => 'sk-ant-test-000000', now: () => (t += 5) },
    );
    expect(report).toMatchObject({
      ok: true,
      text: 'ok',
      outputCap: 32,
      finishReason: 'stop',
      usage: { input_tokens: 12, output_tokens: 1 },
    });
    expect(report.latencyMs).toBeGreaterThan(0);
    expect(report.firstEventMs).toBeGreaterThan(0);
    const body = s.requests[0]!.body!;
    expect(body.max_tokens).toBe(32);
    expect(body).not.toHaveProperty('tools');
  });

  it('drops tool-choosing fields of extra_body and keeps the rest (a thinking switch lives there)', async () => {
    const s = await start([{ text: 'ok' }]);
    await runSmoke({
      protocol: 'openai',
      base_url: s.baseUrl('openai'),
      model: 'gpt',
      extra_body: { tool_choice: 'required', parallel_tool_calls: true, temperature: 0 },
    });
    const body = s.requests[0]!.body!;
    expect(body).not.toHaveProperty('tool_choice');
    expect(body).not.toHaveProperty('parallel_tool_calls');
    expect(body).not.toHaveProperty('tools');
    expect(body.temperature).toBe(0);
  });

  it('takes an explicit cap from 1 to 1024; the thinking variant defaults to 1024; anything else is refused before a request', async () => {
    const s = await start([{ text: 'ok' }, { thinking: 'hmm', text: 'ok' }]);
    const target = { protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt' };
    await runSmoke(target, { outputCap: 1 });
    const thinking = await runSmoke(target, { variant: 'thinking' });
    expect(s.requests.map((r) => r.body!.max_completion_tokens ?? r.body!.max_tokens)).toEqual([1, 1024]);
    expect(thinking).toMatchObject({ ok: true, outputCap: 1024, reasoningChars: 3 });
    for (const bad of [0, 1025, 1.5]) {
      expect(() => smokeOutputCap(bad)).toThrow(expect.objectContaining({ code: 'E_SMOKE_OUTPUT_CAP' }));
      expect(await runSmoke(target, { outputCap: bad, variant: 'thinking' })).toMatchObject({
        ok: false,
        error: { code: 'E_SMOKE_OUTPUT_CAP' },
      });
    }
    expect(smokeOutputCap(1024)).toBe(1024);
    expect(s.requests).toHaveLength(2);
  });

  it('reports the exact provider error without retrying', async () => {
    const s = await start([{ error: { status: 401, message: 'invalid x-api-key' } }, { text: 'never' }]);
    const report = await testConnection(
      { protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt', api_key_env: 'K' },
      { getSecret: () => 'sk-wrong-000000' },
    );
    expect(report.ok).toBe(false);
    expect(report.error).toMatchObject({
      code: 'E_PROVIDER_AUTH',
      data: { status: 401, provider_message: 'invalid x-api-key' },
    });
    expect(s.requests).toHaveLength(1);
  });

  it('refuses a tool call in the answer (E_SMOKE_TOOL_CALL), in the thinking variant too', async () => {
    const s = await start([
      { toolCalls: [{ name: 'shell', arguments: {} }] },
      { thinking: 'x', toolCalls: [{ name: 'read', arguments: {} }] },
    ]);
    const target = { protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt' };
    expect(await testConnection(target)).toMatchObject({
      ok: false,
      error: { code: 'E_SMOKE_TOOL_CALL', data: { tools: ['shell'] } },
    });
    expect(await runSmoke(target, { variant: 'thinking' })).toMatchObject({
      ok: false,
      error: { code: 'E_SMOKE_TOOL_CALL', data: { tools: ['read'] } },
    });
  });

  it('observes the cache only: no provider cache field in the body, the usage recorded in the smoke statistics', async () => {
    const s = await start([{ text: 'ok', usage: { input: 20, output: 1, cached: 8 } }]);
    const stats = createMemoryStatsStore('smoke');
    await runSmoke({ protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt' }, { stats });
    const body = s.requests[0]!.body!;
    expect(body).not.toHaveProperty('prompt_cache_key');
    expect(body).not.toHaveProperty('cache_control');
    const doc = await stats.read();
    expect(doc.totals).toMatchObject({ prepared: 1, observed: 1, input_tokens: 20, cache_read_tokens: 8 });
    expect(doc.namespace).toBe('smoke');
  });

  it("records the app's Test connection apart from every workspace's cache statistics", async () => {
    const s = await start([{ text: 'ok', usage: { input: 5, output: 1 } }]);
    const db = await openHarnessDb(`smoke-${Math.random()}`);
    const workspace = createIdbStatsStore(db, { workspaceId: 'ws-1', namespace: 'smoke' });
    await testConnection(
      { protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt' },
      { stats: appSmokeStats(db) },
    );
    expect((await appSmokeStats(db).read()).totals).toMatchObject({ prepared: 1, observed: 1, input_tokens: 5 });
    expect((await workspace.read()).totals.prepared).toBe(0);
    const names = (await db.getAll('metrics')).map((r) => [r.workspaceId, r.name]);
    expect(names).toEqual([['global', 'smoke-cache']]);
  });
});

describe('smoke example configs', () => {
  it('are valid model configs that name the key variable and hold no key', () => {
    for (const name of ['deepseek.smoke.json', 'deepseek.thinking.json']) {
      const text = readFileSync(new URL(`./examples/${name}`, import.meta.url), 'utf8');
      expect(parseModelConfig(JSON.parse(text))).toMatchObject({
        protocol: 'deepseek',
        api_key_env: 'DEEPSEEK_TEST_API_KEY',
      });
      expect(text).not.toMatch(/sk-|"api_key"/);
    }
  });
});
