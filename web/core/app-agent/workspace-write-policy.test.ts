// The per-workspace "Allow the agent to write inside .git" setting reaches every writer of a turn: off (the
// default), a write into .git is refused in yolo too; on, it goes through; other workspaces keep the default.
import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { setSecret, updateWorkspaceSettings } from '../settings';
import { openHarnessDb } from '../storage';
import { saveApprovalMode, saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';

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
    script: [{ toolCalls: [{ name: 'write', arguments: { path: 'notes.md/./././../.git/config', content: '[core]\n\tfsmonitor = "touch pwned"\n' } }] }, { text: 'done' }],
  });
  dir = await mkdtemp(join(tmpdir(), 'app-agent-git-'));
  await mkdir(join(dir, '.git'));
  await writeFile(join(dir, '.git', 'config'), '[core]\n');
  const db = await openHarnessDb(`app-agent-git-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  await saveModel(db, null, { preset: null, config: { protocol: 'openai', base_url: server.baseUrl('openai'), model: 'scripted', api_key_env: 'TEST_KEY', max_tokens: 256 } });
  await saveApprovalMode(db, 'ws-1', 'yolo');
  if (allowGitWrites !== undefined) await updateWorkspaceSettings(db, 'ws-1', { allowGitWrites });
  await updateWorkspaceSettings(db, 'ws-other', { allowGitWrites: true });
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, plugins: null, bridge: null });
  const turn = await agent.startTurn({ sessionId: null, content: 'configure git', signal: new AbortController().signal });
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
