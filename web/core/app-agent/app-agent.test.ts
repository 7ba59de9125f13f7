// The browser composition driven in Node: fake-indexeddb for the app's database, a real folder through the Node
// WorkspaceFs, the scripted model server speaking each protocol.
import 'fake-indexeddb/auto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { AgentEvent } from '../agent/types';
import type { ApprovalRequest } from '../approval';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import type { ToolDefinition } from '../contracts/tools';
import { readAgentSettings, saveApprovalMode, saveModel } from './agent-settings';
import { createAppAgent, registerToolSource } from './create-app-agent';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function setup(protocol: WireProtocol, script: Parameters<typeof startModelServer>[0]['script']) {
  server = await startModelServer({ script });
  dir = await mkdtemp(join(tmpdir(), 'app-agent-'));
  await writeFile(join(dir, 'notes.txt'), 'colour: red\n');
  const db: HarnessDb = await openHarnessDb(`app-agent-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test-123');
  await saveModel(db, null, {
    preset: null,
    config: {
      budget: { context_window: 1_000_000 },
      protocol,
      base_url: server.baseUrl(protocol),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 512,
    },
  });
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  return { db, fs, dir };
}

const editScript = () => [
  { text: 'Let me look.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
  { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'red', new_string: 'blue' } }] },
  { text: 'Changed the colour to **blue**.' },
];

describe.each<WireProtocol>(['openai', 'deepseek', 'anthropic', 'responses'])('the app agent over %s', (protocol) => {
  it('reads, asks the person about the edit with its diff, edits after Allow and keeps the session', async () => {
    const { db, fs, dir } = await setup(protocol, editScript());
    const asked: ApprovalRequest[] = [];
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, askPerson: async (req) => (asked.push(req), 'allow') });
    const turn = await agent.startTurn({
      sessionId: null,
      content: 'Make the colour blue',
      signal: new AbortController().signal,
    });
    const events: AgentEvent[] = [];
    for await (const e of turn.events) events.push(e);
    const result = await turn.events.result();

    expect(result.stopReason).toBe('stop');
    expect(result.text).toBe('Changed the colour to **blue**.');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: blue\n');
    expect(asked.map((r) => r.name)).toEqual(['edit']); // read is free
    expect(asked[0]!.prepared?.detail).toContain('+colour: blue');
    expect(server!.requests[0]!.headers[protocol === 'anthropic' ? 'x-api-key' : 'authorization']).toContain(
      'sk-test-123',
    );
    const stored = await agent.store.load(turn.session.id);
    expect(stored.info.title).toBe('Make the colour blue');
    expect(stored.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Changed the colour to **blue**.' });
    expect(await agent.interrupted(turn.session.id)).toBeNull();
    expect(events.some((e) => e.type === 'approval' && e.name === 'edit' && e.by === 'person')).toBe(true);
  });
});

describe('the app agent', () => {
  it('records the unfinished batch while an approval is pending, so a reopened page can say what ran', async () => {
    const { db, fs, dir } = await setup('openai', [
      { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'red', new_string: 'green' } }] },
    ]);
    const controller = new AbortController();
    let pending!: () => void;
    const waiting = new Promise<void>((resolve) => (pending = resolve));
    const agent = createAppAgent({
      db,
      workspaceId: 'ws-1',
      fs,
      askPerson: (_req, signal) => {
        pending();
        // The UI's card: stays open until answered or the turn is stopped.
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
    });
    const turn = await agent.startTurn({ sessionId: null, content: 'Make it green', signal: controller.signal });
    const consumed = (async () => {
      for await (const _ of turn.events) void _;
    })();
    await waiting;
    await new Promise((r) => setTimeout(r, 20));

    // A second agent over the same database = the reopened page.
    const reopened = createAppAgent({ db, workspaceId: 'ws-1', fs });
    const journal = await reopened.interrupted(turn.session.id);
    expect(journal?.prompt).toBe('Make it green');
    expect(journal?.calls).toEqual([
      { id: 'call_1', name: 'edit', state: 'waiting-approval', summary: 'Edit notes.txt (1 replacement)' },
    ]);
    const checkpoint = await reopened.store.load(turn.session.id);
    expect(checkpoint.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('colour: red\n');

    controller.abort();
    await consumed;
    expect((await turn.events.result()).stopReason).toBe('aborted');
  });

  it('refuses to start without a model, or when the named key is missing, saying where to fix it', async () => {
    const db = await openHarnessDb(`app-agent-${Math.random()}`);
    dir = await mkdtemp(join(tmpdir(), 'app-agent-'));
    const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs });
    const signal = new AbortController().signal;
    await expect(agent.startTurn({ sessionId: null, content: 'hi', signal })).rejects.toMatchObject({
      code: 'E_MODEL_NOT_CONFIGURED',
    });
    await saveModel(db, null, {
      preset: 'openai',
      config: {
        protocol: 'openai',
        base_url: 'https://api.openai.com/v1',
        model: 'gpt-4.1',
        api_key_env: 'OPENAI_API_KEY',
      },
    });
    await expect(agent.startTurn({ sessionId: null, content: 'hi', signal })).rejects.toMatchObject({
      code: 'E_API_KEY_MISSING',
    });
    expect(await agent.store.list()).toEqual([]);
  });

  it('refuses to save an invalid model config and lets a workspace override the global model and approval mode', async () => {
    const db = await openHarnessDb(`app-agent-${Math.random()}`);
    await expect(saveModel(db, null, { preset: null, config: { base_url: 'x', model: 'm' } })).rejects.toMatchObject({
      code: 'E_CONFIG_INVALID',
    });
    await expect(
      saveModel(db, null, {
        preset: null,
        config: { base_url: 'https://a.example/v1', model: 'm', extra_body: { model: 'other' } },
      }),
    ).rejects.toThrow(/extra_body/);
    await saveModel(db, null, { preset: null, config: { base_url: 'https://a.example/v1', model: 'global-model' } });
    await saveModel(db, 'ws-2', {
      preset: null,
      config: { protocol: 'anthropic', base_url: 'https://b.example', model: 'ws-model' },
    });
    await saveApprovalMode(db, 'ws-2', 'yolo');
    expect(await readAgentSettings(db, 'ws-1')).toMatchObject({
      model: { scope: 'global', config: { model: 'global-model' } },
      approval: 'ask',
    });
    expect(await readAgentSettings(db, 'ws-2')).toMatchObject({
      model: { scope: 'workspace', config: { model: 'ws-model', protocol: 'anthropic' } },
      approval: 'yolo',
    });
  });

  it('offers the tools of registered sources next to the built-ins, and reports a duplicate name instead of replacing', async () => {
    const { db, fs } = await setup('openai', [
      {
        expect: (r) => {
          const names = (r.body!.tools as { function: { name: string } }[]).map((t) => t.function.name);
          if (!names.includes('shout') || names.filter((n) => n === 'read').length !== 1)
            throw new Error(`tools: ${names.join(',')}`);
        },
        toolCalls: [{ name: 'shout', arguments: { text: 'hi' } }],
      },
      { text: 'done' },
    ]);
    const plugin = (name: string): ToolDefinition => ({
      schema: {
        name,
        description: 'test tool',
        parameters: { type: 'object', properties: { text: { type: 'string' } } },
      },
      approval: 'ask',
      external: true,
      execute: async (args) => ({ output: String(args.text).toUpperCase() }),
    });
    await saveApprovalMode(db, 'ws-1', 'yolo');
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs });
    let seenWorkspace = '';
    agent.registerToolSource({ name: 'plugin-x', tools: () => [plugin('shout'), plugin('read')] });
    const removeGlobal = registerToolSource({
      name: 'bridge',
      tools: (ctx) => ((seenWorkspace = ctx.workspaceId), []),
    });
    const turn = await agent.startTurn({ sessionId: null, content: 'shout', signal: new AbortController().signal });
    const events: AgentEvent[] = [];
    for await (const e of turn.events) events.push(e);
    expect((await turn.events.result()).stopReason).toBe('stop');
    expect(events.find((e) => e.type === 'warning')).toMatchObject({ error: { code: 'E_TOOL_DUPLICATE' } });
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ name: 'shout', output: 'HI', error: false });
    expect(server!.failures).toEqual([]);
    expect(seenWorkspace).toBe('ws-1');
    removeGlobal();
  });

  it('keeps the turn going without a tool source that fails, saying which one', async () => {
    const { db, fs } = await setup('openai', [{ text: 'fine' }]);
    const remove = registerToolSource({
      name: 'broken-bridge',
      tools: () => Promise.reject(new Error('bridge not paired')),
    });
    try {
      const agent = createAppAgent({ db, workspaceId: 'ws-1', fs });
      const turn = await agent.startTurn({ sessionId: null, content: 'hi', signal: new AbortController().signal });
      const events: AgentEvent[] = [];
      for await (const e of turn.events) events.push(e);
      expect((await turn.events.result()).text).toBe('fine');
      expect(events[0]).toMatchObject({
        type: 'warning',
        error: { code: 'E_TOOL_SOURCE_FAILED', data: { source: 'broken-bridge' } },
      });
      expect((events[0] as { error: { message: string } }).error.message).toContain('bridge not paired');
    } finally {
      remove();
    }
  });
});

describe('the bridge route', () => {
  it('sends a bridge-routed model request through the paired bridge proxy with the bridge token, the provider key inside', async () => {
    const { db, fs } = await setup('openai', [
      {
        raw: {
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({
            choices: [{ index: 0, message: { role: 'assistant', content: 'via bridge' }, finish_reason: 'stop' }],
          }),
        },
      },
    ]);
    await saveModel(db, null, {
      preset: 'ollama',
      config: {
        budget: { context_window: 1_000_000 },
        protocol: 'openai',
        base_url: 'http://127.0.0.1:11434/v1',
        model: 'qwen3',
        api_key_env: 'TEST_KEY',
        route: 'bridge',
      },
    });
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs });
    const signal = new AbortController().signal;
    const unpaired = await agent.startTurn({ sessionId: null, content: 'hi', signal });
    for await (const _ of unpaired.events) void _;
    expect((await unpaired.events.result()).error).toMatchObject({ code: 'E_BRIDGE_UNAVAILABLE' });

    await db.put('settings', {
      scope: 'bridge',
      version: 1,
      values: { url: server!.url, root: '/work', pairedAt: 1 },
      updatedAt: 1,
    });
    // Saved by an older version as the ordinary secret I_BRIDGE_TOKEN: moved to the internal entry on first use.
    await db.put('secrets', { name: 'I_BRIDGE_TOKEN', value: 'bridge-token-1', updatedAt: 1 });
    const turn = await agent.startTurn({ sessionId: null, content: 'hi', signal });
    for await (const _ of turn.events) void _;
    const proxied = server!.requests.at(-1)!;
    expect(proxied.path).toBe('/v1/proxy');
    expect(proxied.headers.authorization).toBe('Bearer bridge-token-1');
    const forwarded = JSON.parse(proxied.rawBody) as { url: string; headers: Record<string, string> };
    expect(forwarded.url).toBe('http://127.0.0.1:11434/v1/chat/completions');
    expect(forwarded.headers.authorization).toBe('Bearer sk-test-123');
  });

  it('titles a new session after what the person typed, not the files attached after it, and runs the model the turn names', async () => {
    const { db, fs } = await setup('openai', [{ text: 'It sets the colour.' }]);
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs });
    const content = [
      { type: 'text' as const, text: 'Explain notes.txt' },
      { type: 'text' as const, text: '[Workspace file notes.txt]\ncolour: red' },
    ];
    const turn = await agent.startTurn({
      sessionId: null,
      content,
      signal: new AbortController().signal,
      model: 'other-model',
    });
    for await (const _ of turn.events) void _;
    expect(turn.session.title).toBe('Explain notes.txt');
    expect(server!.requests[0]!.body?.model).toBe('other-model');
    const stored = await agent.store.load(turn.session.id);
    expect(stored.messages.at(-1)).toMatchObject({ role: 'assistant', _provider: { model: 'other-model' } });
  });
});
