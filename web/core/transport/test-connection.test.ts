import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { testConnection } from './test-connection';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const start = async (script: ScriptTurn[]) => (server = await startModelServer({ script }));

describe('testConnection', () => {
  it('sends the smoke request (no tools, 32-token cap) and reports latency, usage and text', async () => {
    const s = await start([{ text: 'ok', usage: { input: 12, output: 1 } }]);
    let t = 0;
    const report = await testConnection(
      { protocol: 'anthropic', base_url: s.baseUrl('anthropic'), model: 'claude-test', api_key_env: 'ANTHROPIC_API_KEY' },
      { getSecret: () => 'sk-ant-test-000000', now: () => (t += 5) },
    );
    expect(report).toMatchObject({ ok: true, text: 'ok', usage: { input_tokens: 12, output_tokens: 1 } });
    expect(report.latencyMs).toBeGreaterThan(0);
    expect(report.firstEventMs).toBeGreaterThan(0);
    const body = s.requests[0]!.body!;
    expect(body.max_tokens).toBe(32);
    expect(body).not.toHaveProperty('tools');
  });

  it('reports the exact provider error without retrying', async () => {
    const s = await start([{ error: { status: 401, message: 'invalid x-api-key' } }, { text: 'never' }]);
    const report = await testConnection({ protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt', api_key_env: 'K' }, { getSecret: () => 'sk-wrong-000000' });
    expect(report.ok).toBe(false);
    expect(report.error).toMatchObject({ code: 'E_PROVIDER_AUTH', data: { status: 401, provider_message: 'invalid x-api-key' } });
    expect(s.requests).toHaveLength(1);
  });

  it('counts a tool call in the answer as a failed smoke test', async () => {
    const s = await start([{ toolCalls: [{ name: 'shell', arguments: {} }] }]);
    const report = await testConnection({ protocol: 'openai', base_url: s.baseUrl('openai'), model: 'gpt' });
    expect(report).toMatchObject({ ok: false, error: { code: 'E_SMOKE_TOOL_CALL' } });
  });
});
