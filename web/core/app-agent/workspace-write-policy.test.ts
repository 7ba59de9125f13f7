// The per-workspace "Allow the agent to write inside .git" setting reaches every writer of a turn: off (the
// default), a write into .git is refused in yolo too; on, it goes through; other workspaces keep the default. And a
// plugin's write to a code-running file asks in auto mode (normalised path, raw beside it, the reason), not in yolo.
import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs, nodeWorkerFactory } from '../../../plugin-host/node';
import { createPluginService } from '../plugins';
import { examplePackage } from '../plugins/test-kit';
import { checkSettingsValues, setSecret, updateWorkspaceSettings } from '../settings';
import { openHarnessDb } from '../storage';
import { saveApprovalMode, saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';
import type { PluginWriteRequest } from './turn-extensions';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = undefined;
  dir = undefined;
});

async function turnWritingGitConfig(allowGitWrites: boolean | undefined) {
  server = await startModelServer({
    script: [
      {
        toolCalls: [
          {
            name: 'write',
            arguments: { path: 'notes.md/./././../.git/config', content: '[core]\n\tfsmonitor = "touch pwned"\n' },
          },
        ],
      },
      { text: 'done' },
    ],
  });
  dir = await mkdtemp(join(tmpdir(), 'app-agent-git-'));
  await mkdir(join(dir, '.git'));
  await writeFile(join(dir, '.git', 'config'), '[core]\n');
  const db = await openHarnessDb(`app-agent-git-${Math.random()}`);
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
  await saveApprovalMode(db, 'ws-1', 'yolo');
  if (allowGitWrites !== undefined) await updateWorkspaceSettings(db, 'ws-1', { allowGitWrites });
  await updateWorkspaceSettings(db, 'ws-other', { allowGitWrites: true });
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, plugins: null, bridge: null });
  const turn = await agent.startTurn({
    sessionId: null,
    content: 'configure git',
    signal: new AbortController().signal,
  });
  for await (const _ of turn.events) void _;
  const result = await turn.events.result();
  return { result, config: await readFile(join(dir, '.git', 'config'), 'utf8') };
}

describe('the workspace write policy in the app agent', () => {
  it('refuses a write into .git in yolo mode while the workspace setting is off (the default)', async () => {
    for (const setting of [undefined, false]) {
      const { result, config } = await turnWritingGitConfig(setting);
      expect(result.toolCalls[0]).toMatchObject({ name: 'write', code: 'E_PATH_PROTECTED' });
      expect(config).toBe('[core]\n');
      await server?.close();
      server = undefined;
    }
  });

  it('lets the write through once this workspace allows writes inside .git', async () => {
    const { result, config } = await turnWritingGitConfig(true);
    expect(result.toolCalls[0]).toMatchObject({ name: 'write', error: false });
    expect(config).toContain('fsmonitor');
  });
});

describe('plugin writes to code-running files in the app agent', () => {
  const TOOL = 'example_replace-text--replace_text';
  async function pluginTurn(mode: 'auto' | 'yolo') {
    server = await startModelServer({
      script: [
        {
          toolCalls: [
            { name: TOOL, arguments: { path: 'src/../.vscode/settings.json', find: '{}', replace: '{"x": 1}' } },
          ],
        },
        { text: 'done' },
      ],
    });
    dir = await mkdtemp(join(tmpdir(), 'app-agent-vscode-'));
    await mkdir(join(dir, '.vscode'));
    await writeFile(join(dir, '.vscode', 'settings.json'), '{}\n');
    const db = await openHarnessDb(`app-agent-vscode-${Math.random()}`);
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
    await saveApprovalMode(db, 'ws-1', mode);
    const plugins = createPluginService(db, { createWorker: nodeWorkerFactory() });
    await plugins.registry.import(await examplePackage('replace-text'));
    await plugins.registry.enable('ws-1', 'example.replace-text');
    const writes: PluginWriteRequest[] = [];
    const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
    const agent = createAppAgent({
      db,
      workspaceId: 'ws-1',
      fs,
      plugins,
      bridge: null,
      askPerson: async () => 'allow',
      askWrite: async (w) => (writes.push(w), false),
    });
    try {
      const turn = await agent.startTurn({
        sessionId: null,
        content: 'tune the editor',
        signal: new AbortController().signal,
      });
      for await (const _ of turn.events) void _;
      await turn.events.result();
    } finally {
      await plugins.dispose();
    }
    return { writes, settings: await readFile(join(dir, '.vscode', 'settings.json'), 'utf8') };
  }

  it('asks in auto mode with the normalised path, the raw one and the reason; a denial leaves the file', async () => {
    const { writes, settings } = await pluginTurn('auto');
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      path: '.vscode/settings.json',
      rawPath: 'src/../.vscode/settings.json',
      alwaysAsk: { reason: 'vscode' },
    });
    expect(writes[0]!.diff).toContain('+++ b/.vscode/settings.json');
    expect(settings).toBe('{}\n');
  });

  it('writes without asking in yolo mode', async () => {
    const { writes, settings } = await pluginTurn('yolo');
    expect(writes).toEqual([]);
    expect(settings).toBe('{"x": 1}\n');
  });
});

describe('the allowGitWrites setting', () => {
  it('is per workspace only and a boolean', () => {
    expect(checkSettingsValues({ allowGitWrites: true }, 'workspace', 'w')).toEqual([]);
    expect(checkSettingsValues({ allowGitWrites: true }, 'global', 'g')).toEqual([
      { path: 'g.allowGitWrites', problem: 'can only be set workspace-wide' },
    ]);
    expect(checkSettingsValues({ allowGitWrites: 'yes' }, 'workspace', 'w')).toEqual([
      { path: 'w.allowGitWrites', problem: 'expected true or false' },
    ]);
  });
});
