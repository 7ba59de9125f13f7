// Seed 000 §7 / 003 in the app: a turn whose profile meters the budget or compacts, with a model config that has no
// context window, refuses to start with E_CONFIG_BUDGET_WINDOW and says where to set it (Settings → Model); the
// Responses double encoding is refused the same way. Nothing reaches the model. Node workspace, fake IndexedDB.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { DEFAULT_COMPACT_CONFIG, type ModuleName } from '../modules';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import { saveAgentModules, saveModel, type StoredModules } from './agent-settings';
import { createAppAgent } from './create-app-agent';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = dir = undefined;
});

async function startWith(config: Record<string, unknown>, modules?: StoredModules) {
  server = await startModelServer({ script: [{ text: 'ok' }] });
  dir = await mkdtemp(join(tmpdir(), 'budget-config-'));
  const db = await openHarnessDb(`budget-config-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  const protocol = (config.protocol as 'openai' | 'responses' | undefined) ?? 'openai';
  await saveModel(db, null, {
    preset: null,
    config: {
      base_url: server.baseUrl(protocol),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 256,
      ...config,
    },
  });
  if (modules) await saveAgentModules(db, null, modules);
  const agent = createAppAgent({
    db,
    workspaceId: 'ws',
    fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }),
    plugins: null,
    bridge: null,
  });
  return agent.startTurn({ sessionId: null, content: 'hi', signal: new AbortController().signal });
}

const modules = (
  disabled: ModuleName[],
  compactEnabled = true,
  profile: 'standard' | 'full' = 'standard',
): StoredModules => ({
  selection: { profile, disabled },
  compact: { ...DEFAULT_COMPACT_CONFIG, enabled: compactEnabled },
});

describe('a turn whose profile the model config cannot serve', () => {
  it('refuses to start without a context window under the default profile, naming Settings → Model; nothing is sent', async () => {
    await expect(startWith({})).rejects.toMatchObject({
      code: 'E_CONFIG_BUDGET_WINDOW',
      message: expect.stringContaining('Settings → Model'),
    });
    expect(server!.requests).toHaveLength(0);
  });

  it('refuses compaction alone without a window, and runs once neither the budget nor compaction is on', async () => {
    await expect(startWith({}, modules(['budget']))).rejects.toMatchObject({ code: 'E_CONFIG_BUDGET_WINDOW' });
    const running = await startWith({}, modules(['budget', 'compact']));
    expect((await running.events.result()).stopReason).toBe('stop');
  });

  it('runs with the window set', async () => {
    const running = await startWith({ budget: { context_window: 100_000 } });
    expect((await running.events.result()).stopReason).toBe('stop');
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses protocol "responses" under the full profile (the old responses hook would encode twice)', async () => {
    await expect(
      startWith({ protocol: 'responses', budget: { context_window: 100_000 } }, modules([], true, 'full')),
    ).rejects.toMatchObject({ code: 'E_CONFIG_RESPONSES_HOOK' });
    expect(server!.requests).toHaveLength(0);
  });
});
