// Settings → Agent in the store: validated with the modules' own parsers, strict, per workspace over global, a bad
// stored object reported (and the turn refused) without being overwritten; and a turn reads it when it starts.
// Node + fake-indexeddb + the scripted model server.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import {
  AGENT_GLOBAL_SCOPE,
  checkAgentModules,
  readAgentSettings,
  readStoredModules,
  saveAgentModules,
  saveModel,
} from './agent-settings';
import { createAppAgent } from './create-app-agent';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

const freshDb = () => openHarnessDb(`agent-modules-${Math.random()}`);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { code?: string }).code;
  }
  return 'none';
};

describe('Settings → Agent validation', () => {
  it('accepts the defaults and a full set, and refuses unknown keys, modules, values and prompt lengths with their codes', () => {
    expect(checkAgentModules({})).toEqual({
      selection: { profile: 'standard', disabled: [] },
      compact: { enabled: true, keep_recent: 4, images: 'keep' },
      cache: expect.objectContaining({ enabled: true, mode: 'observe' }),
      systemPrompt: null,
      denyTools: [],
      compactPrompt: null,
      webSearch: null,
      bindings: {},
      skillWorkspaces: [],
    });
    const full = checkAgentModules({
      selection: { profile: 'full', disabled: ['memory', 'web'] },
      compact: { enabled: false, keep_recent: 8, images: 'drop' },
      cache: { enabled: true, mode: 'anthropic' },
      system_prompt: 'You work in {{workspace}}.',
    });
    expect(full).toMatchObject({
      selection: { profile: 'full', disabled: ['memory', 'web'] },
      compact: { enabled: false, keep_recent: 8, images: 'drop' },
      cache: { mode: 'anthropic' },
      systemPrompt: 'You work in {{workspace}}.',
    });
    expect(codeOf(() => checkAgentModules({ extra: 1 }))).toBe('E_AGENT_MODULES_INVALID');
    expect(codeOf(() => checkAgentModules([]))).toBe('E_AGENT_MODULES_INVALID');
    expect(codeOf(() => checkAgentModules({ selection: { profile: 'standard', disabled: ['nope'] } }))).toBe(
      'E_PROFILE_INVALID',
    );
    expect(
      codeOf(() => checkAgentModules({ selection: { profile: 'standard', disabled: ['memory', 'memory'] } })),
    ).toBe('E_PROFILE_INVALID');
    expect(codeOf(() => checkAgentModules({ compact: { keep_recent: 0 } }))).toBe('E_COMPACT_CONFIG');
    expect(codeOf(() => checkAgentModules({ compact: { prompt: 'p.txt' } }))).toBe('E_COMPACT_CONFIG');
    expect(codeOf(() => checkAgentModules({ cache: { mode: 'off' } }))).toBe('E_CACHE_CONFIG');
    expect(codeOf(() => checkAgentModules({ system_prompt: '   ' }))).toBe('E_PROMPT_EMPTY');
    expect(codeOf(() => checkAgentModules({ system_prompt: 'x'.repeat(32_001) }))).toBe('E_PROMPT_TOO_LONG');
    expect(checkAgentModules({ system_prompt: 'x'.repeat(32_000) }).systemPrompt).toHaveLength(32_000);
  });

  it('stores per workspace over global, writes nothing when invalid, and removes a workspace override', async () => {
    const db: HarnessDb = await freshDb();
    await saveAgentModules(db, null, { selection: { profile: 'standard', disabled: ['skills'] } });
    await saveAgentModules(db, 'ws-2', {
      selection: { profile: 'full', disabled: [] },
      cache: { ...checkAgentModules({}).cache, enabled: false },
    });
    expect(await readAgentSettings(db, 'ws-1')).toMatchObject({
      modulesScope: 'global',
      modules: { selection: { disabled: ['skills'] } },
      modulesError: null,
    });
    expect(await readAgentSettings(db, 'ws-2')).toMatchObject({
      modulesScope: 'workspace',
      modules: { selection: { profile: 'full' }, cache: { enabled: false } },
    });
    // Defaults are left out of the stored form.
    expect(await readStoredModules(db, 'ws-2')).toEqual({
      selection: { profile: 'full', disabled: [] },
      cache: expect.objectContaining({ enabled: false }),
    });
    await expect(saveAgentModules(db, null, { system_prompt: '' })).rejects.toMatchObject({ code: 'E_PROMPT_EMPTY' });
    expect(await readStoredModules(db, null)).toEqual({ selection: { profile: 'standard', disabled: ['skills'] } });
    await saveAgentModules(db, 'ws-2', null);
    expect(await readAgentSettings(db, 'ws-2')).toMatchObject({
      modulesScope: 'global',
      modules: { selection: { disabled: ['skills'] } },
    });
    // The model settings of the same scope are untouched by the agent settings.
    await saveModel(db, null, {
      preset: null,
      config: { base_url: 'http://127.0.0.1:1/v1', model: 'm', max_tokens: 16 },
    });
    await saveAgentModules(db, null, { compact: { enabled: true, keep_recent: 6, images: 'keep' } });
    expect(await readAgentSettings(db, 'ws-1')).toMatchObject({
      model: { config: { model: 'm' } },
      modules: { compact: { keep_recent: 6 }, selection: { disabled: [] } },
    });
  });

  it('reports bad stored data with its code and keeps it as it was', async () => {
    const db = await freshDb();
    const bad = { selection: { profile: 'standard', disabled: ['telepathy'] } };
    await db.put('settings', { scope: AGENT_GLOBAL_SCOPE, version: 1, values: { modules: bad }, updatedAt: 0 });
    const settings = await readAgentSettings(db, 'ws-1');
    expect(settings.modulesError).toMatchObject({ code: 'E_PROFILE_INVALID' });
    expect(settings.modulesError!.message).toContain('telepathy');
    expect(await readStoredModules(db, null)).toEqual(bad);
  });
});

describe('a turn with Settings → Agent', () => {
  const toolNames = (r: RecordedRequest) =>
    ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
  const systemText = (r: RecordedRequest) =>
    String(
      (r.body as { messages: Array<{ role: string; content: unknown }> }).messages.find((m) => m.role === 'system')
        ?.content ?? '',
    );

  async function setup() {
    server = await startModelServer({ script: () => ({ text: 'ok' }) });
    dir = await mkdtemp(join(tmpdir(), 'agent-modules-'));
    const db = await freshDb();
    await setSecret(db, 'TEST_KEY', 'sk-test');
    await saveModel(db, null, {
      preset: null,
      config: {
        budget: { context_window: 1_000_000 },
        base_url: server.baseUrl('openai'),
        model: 'scripted',
        api_key_env: 'TEST_KEY',
        max_tokens: 64,
      },
    });
    const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, plugins: null, bridge: null });
    const run = async () => {
      const t = await agent.startTurn({ sessionId: null, content: 'hi', signal: new AbortController().signal });
      for await (const _ of t.events);
      return t.events.result();
    };
    return { db, run, folder: fs.rootName };
  }

  it('drops the memory tools once "memory" is disabled, read when the next turn starts, and uses the stored prompt', async () => {
    const { db, run, folder } = await setup();
    await run();
    expect(toolNames(server!.requests[0]!)).toEqual(expect.arrayContaining(['memory_get', 'memory_set', 'read']));
    await saveAgentModules(db, 'ws-1', {
      selection: { profile: 'standard', disabled: ['memory'] },
      system_prompt: 'PROMPT-X for {{workspace}}',
    });
    expect((await run()).stopReason).toBe('stop');
    const names = toolNames(server!.requests[1]!);
    expect(names).toContain('read');
    expect(names).not.toContain('memory_get');
    expect(names).not.toContain('memory_set');
    expect(systemText(server!.requests[1]!)).toBe(`PROMPT-X for ${folder}`);
  });

  it('refuses to start a turn while the stored settings are invalid, naming Settings → Agent', async () => {
    const { db, run } = await setup();
    await db.put('settings', {
      scope: AGENT_GLOBAL_SCOPE,
      version: 1,
      values: { ...(await db.get('settings', AGENT_GLOBAL_SCOPE))!.values, modules: { cache: { mode: 'psychic' } } },
      updatedAt: 0,
    });
    await expect(run()).rejects.toMatchObject({
      code: 'E_CACHE_CONFIG',
      message: expect.stringContaining('Settings → Agent'),
    });
    expect(server!.requests).toHaveLength(0);
  });
});
