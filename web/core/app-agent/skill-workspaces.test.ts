// Settings → Agent → "Skills from other folders" (skills.json `roots` in the app): another workspace's folder lends
// its skills to a turn; a workspace that is gone or cannot be opened is a problem with its code, never a silent skip.
import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { HarnessError } from '../contracts/errors';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import { checkAgentModules, saveAgentModules, saveApprovalMode, saveModel } from './agent-settings';
import { createAppAgent } from './create-app-agent';
import { MAX_SKILL_WORKSPACES, skillCatalogWith, type SkillWorkspaceOpener } from './skill-workspaces';

let server: ModelServer | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'skill-ws-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const nodeFs = (root: string) => createNodeWorkspaceFs({ root, access: 'read' });

async function lending(): Promise<SkillWorkspaceOpener> {
  const lender = await folder({
    'pdf/SKILL.md': '---\nname: pdf\ndescription: Fill PDF forms.\n---\nUse the form tool.\n',
  });
  return async (id) => {
    if (id === 'lender') return { name: 'Team skills', fs: await nodeFs(lender) };
    if (id === 'forgotten')
      throw new HarnessError(
        'E_WORKSPACE_ACCESS_NEEDED',
        'The browser needs your permission again to open this folder. Click “Restore access”.',
      );
    return null;
  };
}

describe('skills lent by other workspaces', () => {
  it('adds the other folder’s skills after the workspace’s own, and names each one that cannot be opened', async () => {
    const own = await folder({ '.agents/skills/lint/SKILL.md': '---\nname: lint\ndescription: Lint things.\n---\n' });
    const catalog = await skillCatalogWith(
      await nodeFs(own),
      'self',
      ['self', 'lender', 'gone', 'forgotten'],
      await lending(),
    );
    expect(catalog.skills.map((s) => [s.name, s.source])).toEqual([
      ['lint', '.agents/skills/lint'],
      ['pdf', 'workspace:Team skills/pdf'],
    ]);
    expect(catalog.problems.map((p) => [p.code, p.data])).toEqual([
      ['E_SKILL_WORKSPACE_MISSING', { workspaceId: 'gone' }],
      ['E_SKILL_WORKSPACE_NO_ACCESS', { workspaceId: 'forgotten', cause: 'E_WORKSPACE_ACCESS_NEEDED' }],
    ]);
  });

  it('stores the chosen workspaces strictly (ids, each once, at most eight)', () => {
    expect(checkAgentModules({ skill_workspaces: ['a', 'b'] }).skillWorkspaces).toEqual(['a', 'b']);
    expect(() => checkAgentModules({ skill_workspaces: ['a', 'a'] })).toThrow(
      /skill_workspaces\.1: the workspace "a" is listed twice/,
    );
    expect(() => checkAgentModules({ skill_workspaces: ['../x'] })).toThrow(/is not a workspace id/);
    expect(() =>
      checkAgentModules({ skill_workspaces: Array.from({ length: MAX_SKILL_WORKSPACES + 1 }, (_, i) => `w${i}`) }),
    ).toThrow(/at most 8/);
  });

  it('a turn offers the lent skill to the model; without the setting it does not', async () => {
    server = await startModelServer({ script: () => ({ text: 'ok' }) });
    const open = await lending();
    const sent: string[] = [];
    for (const lend of [['lender'], []]) {
      const db = await openHarnessDb(`skill-ws-${Math.random()}`);
      await setSecret(db, 'TEST_KEY', 'sk-test');
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
      await saveAgentModules(db, null, lend.length ? { skill_workspaces: lend } : {});
      await saveApprovalMode(db, 'ws', 'auto');
      const agent = createAppAgent({
        db,
        workspaceId: 'ws',
        fs: await createNodeWorkspaceFs({ root: await folder({}), access: 'read-write' }),
        plugins: null,
        bridge: null,
        openSkillWorkspace: open,
      });
      const turn = await agent.startTurn({ sessionId: null, content: 'hello', signal: new AbortController().signal });
      for await (const _ of turn.events) void _;
      expect((await turn.events.result()).stopReason).toBe('stop');
      sent.push(server.requests.at(-1)!.rawBody);
    }
    expect(sent[0]).toContain('Fill PDF forms.');
    expect(sent[0]).toContain('workspace:Team skills');
    expect(sent[1]).not.toContain('Fill PDF forms.');
  });
});
