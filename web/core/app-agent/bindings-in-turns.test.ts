// Settings → Agent bindings (seed 000 §1) in the app agent against a real i-bridge whose manifest serves the memory
// module's tools and a context_budget hook from a fixture worker: a bound module runs on the bridge (the built-in
// is not registered), its failure stops the turn with the worker's error, an unbound module keeps the built-in, and
// a binding the bridge cannot serve refuses the turn before anything runs. Node + fake IndexedDB.
import 'fake-indexeddb/auto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { AgentEvent } from '../agent/types';
import { pairBridge } from '../bridge-client';
import { startTestBridge, type TestBridge } from '../bridge-client/test-bridge';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { saveAgentModules, saveModel, type StoredModules } from './agent-settings';
import { createAppAgent } from './create-app-agent';

const WS = '6c1d8b63-4a1f-4d2c-8b66-3e8f2a9c7d12';
const worker = resolve(__dirname, '../headless/native/__fixtures__/bound-module-worker.mjs');
const params = { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } };
let dir: string;
let bridge: TestBridge;
let server: ModelServer | undefined;
/** One app database for all cases: a pairing code works once, so the bridge is paired once. */
let db: HarnessDb;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'app-bindings-'));
  const manifest = join(dir, 'desktop.json');
  await writeFile(
    manifest,
    JSON.stringify({
      tools: ['memory_get', 'memory_set'].map((name) => ({
        name,
        description: `${name} from the bound worker`,
        parameters: params,
        exec: ['node', worker],
      })),
      hooks: [{ events: ['context_budget'], exec: ['node', worker, '--fail-on', 'PLEASE-FAIL'] }],
    }),
  );
  bridge = await startTestBridge([], manifest);
  db = await openHarnessDb(`app-bindings-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  await pairBridge(db, bridge.url, bridge.code);
}, 60_000);
afterAll(async () => {
  await bridge?.stop();
  await rm(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function agentWith(modules: StoredModules, script: ScriptTurn[]) {
  server = await startModelServer({ script });
  await saveModel(db, null, {
    preset: null,
    config: {
      base_url: server.baseUrl('openai'),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 256,
      budget: { context_window: 1_000_000 },
    },
  });
  await saveAgentModules(db, null, modules);
  const agent = createAppAgent({
    db,
    workspaceId: WS,
    fs: await createNodeWorkspaceFs({ root: bridge.root, access: 'read-write' }),
    plugins: null,
    askPerson: async () => 'allow',
  });
  return async (content: string, sessionId: string | null = null) => {
    const t = await agent.startTurn({ sessionId, content, signal: new AbortController().signal });
    const events: AgentEvent[] = [];
    for await (const e of t.events) events.push(e);
    return { session: t.session.id, events, result: await t.events.result() };
  };
}

const toolNames = (r: RecordedRequest) =>
  ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
const toolMessages = (r: RecordedRequest) =>
  (r.body as { messages: Array<{ role: string; content: string }> }).messages
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
const memoryGet: ScriptTurn[] = [{ toolCalls: [{ name: 'memory_get', arguments: {} }] }, { text: 'done' }];

describe('modules bound to the paired i-bridge', () => {
  it('a bound memory module answers from the bridge worker; a failing bound budget hook stops the turn with its error', async () => {
    const run = await agentWith({ bindings: { memory: { worker: 'bridge' }, budget: { worker: 'bridge' } } }, [
      ...memoryGet,
      { text: 'never sent' },
    ]);
    const first = await run('use memory');
    expect(first.result.error).toBeUndefined();
    expect(first.events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(toolNames(server!.requests[0]!).filter((n) => n === 'memory_get')).toHaveLength(1);
    expect(toolMessages(server!.requests[1]!).join('\n')).toContain('WORKER:memory_get');

    const second = await run('PLEASE-FAIL now', first.session);
    expect(second.result.stopReason).toBe('error');
    expect(second.result.error?.message).toContain('bound worker says no (context_budget)');
    expect(server!.requests).toHaveLength(2);
  }, 60_000);

  it('without the binding the built-in memory answers and the bridge duplicate is only a warning', async () => {
    const run = await agentWith({}, memoryGet);
    const { events } = await run('use memory');
    expect(events.flatMap((e) => (e.type === 'warning' ? [e.error.code] : []))).toContain('E_TOOL_DUPLICATE');
    expect(toolMessages(server!.requests[1]!).join('\n')).not.toContain('WORKER:');
  }, 60_000);

  it('refuses to start a turn whose bound module the bridge does not serve (skills here), sending nothing', async () => {
    const run = await agentWith({ bindings: { skills: { worker: 'bridge' } } }, [{ text: 'never' }]);
    await expect(run('hi')).rejects.toMatchObject({
      code: 'E_BINDING_WORKER_MISSING',
      message: expect.stringContaining('skill_load'),
    });
    expect(server!.requests).toHaveLength(0);
  }, 60_000);
});
