// A custom protocol in the app, all real: fake-indexeddb, an i-bridge process whose example manifest has the toy
// provider worker (bridge/examples/node-worker.mjs: OpenAI chat on the wire), and the scripted model server.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { saveModel } from '../app-agent/agent-settings';
import { createAppAgent, type AppAgentOptions } from '../app-agent/create-app-agent';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { connectedBridge, pairBridge } from './index';
import { startTestBridge } from './test-bridge';

const WS = '0d7f3a1e-6b2c-4e8f-9a10-3c5d7e9f1b24';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

async function setup(script: ScriptTurn[], config: (server: ModelServer) => Record<string, unknown>) {
  const server = await startModelServer({ script });
  cleanups.push(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), 'custom-protocol-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const db: HarnessDb = await openHarnessDb(`custom-protocol-${Math.random()}`);
  cleanups.push(() => db.close());
  await setSecret(db, 'TOY_KEY', 'sk-toy-1');
  await saveModel(db, null, { preset: null, config: config(server) });
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const options: AppAgentOptions = { db, workspaceId: WS, fs, plugins: null, memory: null };
  return { server, db, options };
}

async function turn(options: AppAgentOptions, prompt: string) {
  const agent = createAppAgent(options);
  const running = await agent.startTurn({ sessionId: null, content: prompt, signal: new AbortController().signal });
  for await (const _ of running.events);
  return running.events.result();
}

const toyConfig = (server: ModelServer) => ({
  budget: { context_window: 1_000_000 },
  protocol: 'toy-chat',
  base_url: server.baseUrl('openai'),
  model: 'scripted',
  api_key_env: 'TOY_KEY',
  max_tokens: 256,
});

describe('a custom protocol in the app', () => {
  it('runs a turn through the paired bridge provider worker: prepared there, sent by the core with the key, parsed there', async () => {
    const bridge = await startTestBridge();
    cleanups.push(() => bridge.stop());
    const { server, db, options } = await setup([{ text: 'Hello from the toy provider.' }, { text: 'ok' }], toyConfig);
    await pairBridge(db, bridge.url, bridge.code);
    const result = await turn({ ...options, bridge: () => connectedBridge(db) }, 'Say hello');
    expect(result.error).toBeUndefined();
    expect(result.text).toBe('Hello from the toy provider.');
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    // The worker's body (no stream field: custom providers run non-streaming) and the key attached by the core.
    expect(sent.path).toMatch(/\/chat\/completions$/);
    expect(sent.body).toMatchObject({ model: 'scripted', max_tokens: 256 });
    expect(sent.body).not.toHaveProperty('stream');
    expect(sent.headers.authorization).toBe('Bearer sk-toy-1');

    // Test connection takes the same path.
    const report = await createAppAgent({ ...options, bridge: () => connectedBridge(db) }).testConnection(
      (await import('../config')).parseModelConfig(toyConfig(server)),
    );
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ ok: true, text: 'ok' });
    expect(server.requests[1]!.body).toMatchObject({ max_tokens: 32 });
  }, 30_000);

  it('fails with E_PROVIDER_BRIDGE_MISSING when no bridge is paired, and sends nothing', async () => {
    const { server, options } = await setup([{ text: 'never' }], toyConfig);
    const result = await turn(options, 'Say hello');
    expect(result.error?.code).toBe('E_PROVIDER_BRIDGE_MISSING');
    expect(result.error?.message).toMatch(/Settings → Bridge/);
    expect(server.requests).toHaveLength(0);
  }, 30_000);

  it('refuses an {"exec"} provider binding in the app before anything runs', async () => {
    const { server, options } = await setup([{ text: 'never' }], (s) => ({
      ...toyConfig(s),
      provider: { exec: ['node', 'worker.mjs'] },
    }));
    await expect(turn(options, 'Say hello')).rejects.toMatchObject({ code: 'E_CONFIG_UNSUPPORTED' });
    expect(server.requests).toHaveLength(0);
  }, 30_000);
});
