// Settings → Agent → "Tools the agent sees" in the app's turns: a workspace's stored view is what the next request
// carries; another workspace is unaffected; a damaged stored view stops the turn before any request with its code;
// saving a view keeps the workspace's other agent settings. Node workspace, fake IndexedDB, scripted model server.
import 'fake-indexeddb/auto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import type { AgentEvent } from '../agent/types';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { agentWorkspaceScope, readAgentSettings, saveApprovalMode, saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';
import { readToolView, saveToolView, summariseToolView } from './tool-view-settings';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = dir = undefined;
});

async function setup() {
  server = await startModelServer({ script: [{ text: 'one' }, { text: 'two' }] });
  dir = await mkdtemp(join(tmpdir(), 'tool-view-'));
  const db = await openHarnessDb(`tool-view-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  await saveModel(db, null, {
    preset: null,
    config: {
      budget: { context_window: 1_000_000 },
      protocol: 'openai',
      base_url: server.baseUrl('openai'),
      model: 'scripted',
      api_key_env: 'TEST_KEY',
      max_tokens: 256,
    },
  });
  return { db, fs: await createNodeWorkspaceFs({ root: dir, access: 'read-write' }) };
}

async function turn(db: HarnessDb, fs: Awaited<ReturnType<typeof setup>>['fs'], workspaceId: string) {
  const agent = createAppAgent({ db, workspaceId, fs, plugins: null, bridge: null });
  const running = await agent.startTurn({ sessionId: null, content: 'hi', signal: new AbortController().signal });
  const events: AgentEvent[] = [];
  for await (const e of running.events) events.push(e);
  return { result: await running.events.result(), events };
}

const sentTools = () =>
  server!.requests.map((r) =>
    ((r.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort(),
  );

describe('tool view of a workspace in app turns', () => {
  it("sends only the view's schemas for that workspace, all tools for another", async () => {
    const { db, fs } = await setup();
    await saveToolView(db, 'ws-1', { names: [], groups: ['files'] });
    expect((await turn(db, fs, 'ws-1')).result.stopReason).toBe('stop');
    expect(sentTools()[0]).toEqual(['edit', 'read', 'read_result', 'view_image', 'write']);
    await turn(db, fs, 'ws-2');
    expect(sentTools()[1]).toEqual(expect.arrayContaining(['glob', 'search', 'read', 'write']));
  });

  it('stops before any request when the stored view is damaged, naming the code', async () => {
    const { db, fs } = await setup();
    await db.put('settings', {
      scope: agentWorkspaceScope('ws-1'),
      version: 1,
      values: { toolView: { names: ['read', 'read'] } },
      updatedAt: 0,
    });
    await expect(readToolView(db, 'ws-1')).rejects.toMatchObject({ code: 'E_TOOL_VIEW_DUPLICATE' });
    const { result } = await turn(db, fs, 'ws-1');
    expect(result.stopReason).toBe('error');
    expect(result.error?.code).toBe('E_TOOL_VIEW_DUPLICATE');
    expect(result.error?.message).toContain('Settings → Agent');
    expect(server!.requests).toEqual([]);
  });

  it('saves a view beside the approval mode without losing it, and removes it again', async () => {
    const { db } = await setup();
    await saveApprovalMode(db, 'ws-1', 'auto');
    await saveToolView(db, 'ws-1', { names: ['read'], groups: ['search'] });
    expect((await readAgentSettings(db, 'ws-1')).approval).toBe('auto');
    expect(await readToolView(db, 'ws-1')).toEqual({ names: ['read'], groups: ['search'] });
    await expect(saveToolView(db, 'ws-1', { names: [], groups: ['terminal'] })).rejects.toMatchObject({
      code: 'E_TOOL_VIEW_CONFIG_INVALID',
    });
    expect(await readToolView(db, 'ws-1')).toEqual({ names: ['read'], groups: ['search'] });
    await saveToolView(db, 'ws-1', null);
    expect(await readToolView(db, 'ws-1')).toBeNull();
    expect((await readAgentSettings(db, 'ws-1')).approval).toBe('auto');
  });

  it('counts a view over the built-ins for Settings and leaves plugin, MCP and unknown names to the turn', async () => {
    const { db } = await setup();
    const all = await summariseToolView(db, 'ws-1', null);
    // Six file tools, memory and skills tools (default profile), read_result.
    expect(all).toMatchObject({ count: 11, error: null, atTurnStart: [] });
    const files = await summariseToolView(db, 'ws-1', { names: ['shell'], groups: ['files', 'plugin:docs'] });
    expect(files).toMatchObject({ count: 5, error: null, atTurnStart: ['plugin:docs', 'shell'] });
    expect(files.bytes).toBeGreaterThan(500);
    expect(files.bytes).toBeLessThan(all.bytes);
    expect((await summariseToolView(db, 'ws-1', { names: ['read'], groups: [] })).count).toBe(1);
  });
});
