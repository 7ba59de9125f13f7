// The app agent with its extensions, all real: a plugin package from dist/plugins run in Node workers through the
// shared invocation path, and an i-bridge process with the example manifest. The scripted model calls the public
// tool names; the person's two ports (call approval, write approval) are recorded.
import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs, nodeWorkerFactory } from '../../../plugin-host/node';
import type { AgentEvent } from '../agent/types';
import type { ApprovalRequest } from '../approval';
import { HookPipeline } from '../hooks';
import { connectedBridge, pairBridge } from '../bridge-client';
import { startTestBridge, type TestBridge } from '../bridge-client/test-bridge';
import { createPluginService, type PluginService } from '../plugins';
import { examplePackage } from '../plugins/test-kit';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { saveApprovalMode, saveModel } from './agent-settings';
import { createAppAgent, type AppAgentOptions } from './create-app-agent';
import type { PluginWriteRequest } from './turn-extensions';
import { markedToolContent } from '../agent/native-marks';

const PLUGIN_TOOL = 'example_replace-text--replace_text';
/** The bridge checks that workspace_id is a UUID, as the app's workspace ids are. */
const WS = '5b0c7a52-3f0e-4c1b-9a55-2d7f1e8b6c01';
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const f of cleanups.splice(0).reverse()) await f();
});

async function setup(script: ScriptTurn[]) {
  const server: ModelServer = await startModelServer({ script });
  cleanups.push(() => server.close());
  const dir = await mkdtemp(join(tmpdir(), 'app-agent-ext-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'notes.txt'), 'colour: red\n');
  const db: HarnessDb = await openHarnessDb(`app-agent-ext-${Math.random()}`);
  cleanups.push(() => db.close());
  await setSecret(db, 'TEST_KEY', 'sk-test-123');
  await saveModel(db, null, {
    preset: null,
    config: {
      budget: { context_window: 1_000_000 },
      protocol: 'openai',
      base_url: server.baseUrl('openai'),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 512,
    },
  });
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  return { server, dir, db, fs };
}

async function pluginService(db: HarnessDb, enabled: boolean): Promise<PluginService> {
  const service = createPluginService(db, { createWorker: nodeWorkerFactory() });
  cleanups.push(() => service.dispose());
  await service.registry.import(await examplePackage('replace-text'));
  if (enabled) await service.registry.enable('ws-1', 'example.replace-text');
  return service;
}

async function run(options: AppAgentOptions, prompt: string) {
  const agent = createAppAgent(options);
  const turn = await agent.startTurn({ sessionId: null, content: prompt, signal: new AbortController().signal });
  const events: AgentEvent[] = [];
  for await (const e of turn.events) events.push(e);
  return { events, result: await turn.events.result() };
}

const toolNames = (r: RecordedRequest) =>
  ((r.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const toolMessages = (r: RecordedRequest) =>
  ((r.body?.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

describe('plugin tools in the app agent', () => {
  it('offers an enabled plugin by its public name; the call and then its write are approved, and the file changes even if the plugin is removed mid-turn', async () => {
    const { server, dir, db, fs } = await setup([
      { toolCalls: [{ name: PLUGIN_TOOL, arguments: { path: 'notes.txt', find: 'red', replace: 'blue' } }] },
      { text: 'Replaced.' },
    ]);
    const asked: ApprovalRequest[] = [];
    const writes: PluginWriteRequest[] = [];
    const plugins = await pluginService(db, true);
    // The turn pinned the plugin at its start: uninstalling it while the call waits does not take it away.
    const askPerson = async (r: ApprovalRequest) => (
      asked.push(r),
      await plugins.registry.uninstall('example.replace-text'),
      'allow' as const
    );
    const { result, events } = await run(
      { db, workspaceId: 'ws-1', fs, plugins, bridge: null, askPerson, askWrite: async (w) => (writes.push(w), true) },
      'Make it blue',
    );

    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('Replaced.');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: blue\n');
    expect(toolNames(server.requests[0]!)).toContain(PLUGIN_TOOL);
    expect(asked.map((r) => [r.name, r.external])).toEqual([[PLUGIN_TOOL, true]]);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      callId: asked[0]!.callId,
      tool: PLUGIN_TOOL,
      pluginId: 'example.replace-text',
      path: 'notes.txt',
      exists: true,
    });
    expect(writes[0]!.diff).toContain('-colour: red\n+colour: blue');
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  });

  it('denying the write leaves the file unchanged and tells the model the write was denied', async () => {
    const { server, dir, db, fs } = await setup([
      { toolCalls: [{ name: PLUGIN_TOOL, arguments: { path: 'notes.txt', find: 'red', replace: 'blue' } }] },
      { text: 'Could not.' },
    ]);
    await run(
      {
        db,
        workspaceId: 'ws-1',
        fs,
        plugins: await pluginService(db, true),
        bridge: null,
        askPerson: async () => 'allow',
        askWrite: async () => false,
      },
      'Make it blue',
    );
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: red\n');
    expect(toolMessages(server.requests[1]!).join('\n')).toContain('E_HOST_WRITE_DENIED');
  });

  it('in auto mode neither the call nor the write asks', async () => {
    const { dir, db, fs } = await setup([
      { toolCalls: [{ name: PLUGIN_TOOL, arguments: { path: 'notes.txt', find: 'red', replace: 'green' } }] },
      { text: 'Done.' },
    ]);
    await saveApprovalMode(db, 'ws-1', 'auto');
    const asked: string[] = [];
    await run(
      {
        db,
        workspaceId: 'ws-1',
        fs,
        plugins: await pluginService(db, true),
        bridge: null,
        askPerson: async (r) => (asked.push(r.name), 'allow'),
        askWrite: async (w) => (asked.push(w.path), true),
      },
      'Make it green',
    );
    expect(asked).toEqual([]);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: green\n');
  });

  it('does not offer a plugin that is installed but not enabled for the workspace', async () => {
    const { server, db, fs } = await setup([{ text: 'No such tool here.' }]);
    await run({ db, workspaceId: 'ws-1', fs, plugins: await pluginService(db, false), bridge: null }, 'hi');
    expect(toolNames(server.requests[0]!)).not.toContain(PLUGIN_TOOL);
    expect(toolNames(server.requests[0]!)).toContain('edit');
  });
});

describe('a paired i-bridge in the app agent', () => {
  let bridge: TestBridge;
  async function paired(db: HarnessDb) {
    bridge = await startTestBridge();
    cleanups.push(() => bridge.stop());
    await pairBridge(db, bridge.url, bridge.code);
  }

  it('offers its tools (asking first), web_fetch through it, runs its before_turn hook, and returns the result to the model', async () => {
    const { server, db, fs } = await setup([
      { toolCalls: [{ name: 'echo', arguments: { text: 'ping from the model' } }] },
      { toolCalls: [{ name: 'web_fetch', arguments: { url: 'http://127.0.0.1:9/' } }] },
      { text: 'The bridge said it back.' },
    ]);
    await paired(db);
    const asked: ApprovalRequest[] = [];
    const hooks = new HookPipeline();
    const seen: unknown[] = [];
    hooks.register({
      name: 'profile-module',
      source: 'profile',
      events: ['before_turn'],
      handle: (_e, data) => (seen.push(data), data),
    });
    let order: string[] = [];
    const askPerson = async (r: ApprovalRequest) => (
      (order = hooks.handlersFor('before_turn').map((h) => `${h.source}:${h.name}`)),
      asked.push(r),
      'allow' as const
    );
    const { result, events } = await run(
      { db, workspaceId: WS, fs, plugins: null, hooks, askPerson },
      'Echo something',
    );

    expect(result.error).toBeUndefined();
    expect(result.stopReason).toBe('stop');
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(toolNames(server.requests[0]!)).toEqual(
      expect.arrayContaining(['echo', 'workspace_info', 'word_count', 'web_fetch']),
    );
    expect(asked.map((r) => [r.name, r.external])).toEqual([
      ['echo', true],
      ['web_fetch', true],
    ]);
    expect(asked[1]!.prepared?.summary).toBe('Fetch http://127.0.0.1:9/ (via bridge)');
    expect(toolMessages(server.requests[1]!)).toEqual([markedToolContent('ping from the model')]);
    // web_fetch ran in the bridge: only the bridge's resolver refuses a loopback address with this code.
    expect(toolMessages(server.requests[2]!)[1]).toContain('E_WEB_PRIVATE_ADDRESS');
    // During the turn the bridge's hooks (word_count.py subscribes to before_turn) come after the profile modules;
    // they ran (a failing before_turn hook would have failed the turn) and are removed when the turn ends.
    expect(order).toEqual(['profile:profile-module', 'manifest:i-bridge']);
    expect(seen).toHaveLength(1);
    expect(hooks.handlersFor('before_turn').map((h) => h.name)).toEqual(['profile-module']);
  });

  it('a paired bridge that does not answer is a warning naming it; the turn goes on with the built-ins', async () => {
    const { server, db, fs } = await setup([{ text: 'Still here.' }]);
    await paired(db);
    await bridge.stop();
    expect(await connectedBridge(db)).toBeDefined();
    const { result, events } = await run({ db, workspaceId: WS, fs, plugins: null }, 'hi');

    expect(result.text).toBe('Still here.');
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.error] : []));
    expect(warnings).toEqual([
      expect.objectContaining({
        code: 'E_TOOL_SOURCE_FAILED',
        data: expect.objectContaining({ source: 'i-bridge', cause: 'E_BRIDGE_UNREACHABLE' }),
      }),
    ]);
    expect(toolNames(server.requests[0]!)).not.toContain('echo');
    expect(toolNames(server.requests[0]!)).not.toContain('web_fetch');
    expect(toolNames(server.requests[0]!)).toContain('read');
  });
});
