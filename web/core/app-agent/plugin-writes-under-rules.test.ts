// Approval rules judge each file write a plugin makes, by its normalised path (review of issue 16): a deny on
// secrets/** holds even in yolo and under a case-folded spelling, an allow on src/** writes unasked in ask mode, and
// no rule leaves the mode's answer. Real WASM plugin (example replace-text), Node workspace, scripted model server.
import 'fake-indexeddb/auto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { createNodeWorkspaceFs, nodeWorkerFactory } from '../../../plugin-host/node';
import type { ApprovalRule } from '../approval';
import { createPluginService } from '../plugins';
import { examplePackage } from '../plugins/test-kit';
import { setSecret } from '../settings';
import { openHarnessDb } from '../storage';
import { saveApprovalMode, saveApprovalRules, saveModel, type ApprovalMode } from './agent-settings';
import { createAppAgent } from './create-app-agent';
import type { PluginWriteRequest } from './turn-extensions';

const TOOL = 'example_replace-text--replace_text';
let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  server = dir = undefined;
});

async function pluginWrite(
  path: string,
  mode: ApprovalMode,
  rules: ApprovalRule[],
  links: Record<string, string> = {},
) {
  server = await startModelServer({
    script: [{ toolCalls: [{ name: TOOL, arguments: { path, find: 'old', replace: 'new' } }] }, { text: 'done' }],
  });
  dir = await mkdtemp(join(tmpdir(), 'plugin-rules-'));
  for (const f of ['secrets/key.txt', 'src/a.txt', 'notes.txt']) {
    await mkdir(join(dir, f, '..'), { recursive: true });
    await writeFile(join(dir, f), 'old\n');
  }
  for (const [link, to] of Object.entries(links)) await symlink(to, join(dir, link));
  const db = await openHarnessDb(`plugin-rules-${Math.random()}`);
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
  await saveApprovalRules(db, 'ws-1', rules);
  const plugins = createPluginService(db, { createWorker: nodeWorkerFactory() });
  await plugins.registry.import(await examplePackage('replace-text'));
  await plugins.registry.enable('ws-1', 'example.replace-text');
  const asked: PluginWriteRequest[] = [];
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  // The tool call itself is allowed by the person; only the write inside it is under test.
  const agent = createAppAgent({
    db,
    workspaceId: 'ws-1',
    fs,
    plugins,
    bridge: null,
    askPerson: async () => 'allow',
    askWrite: async (w) => (asked.push(w), true),
  });
  try {
    const turn = await agent.startTurn({ sessionId: null, content: 'replace', signal: new AbortController().signal });
    for await (const _ of turn.events) void _;
    await turn.events.result();
  } finally {
    await plugins.dispose();
  }
  const read = (f: string) => readFile(join(dir!, f), 'utf8');
  return { asked: asked.map((a) => a.path), read };
}

const RULES: ApprovalRule[] = [
  { decision: 'deny', tool: 'group:writes', path: 'secrets/**' },
  { decision: 'allow', tool: 'plugin:example.replace-text', path: 'src/**' },
];

describe('plugin writes under approval rules', () => {
  it('refuses a write a deny rule covers even in yolo mode', async () => {
    const r = await pluginWrite('secrets/key.txt', 'yolo', RULES);
    expect(await r.read('secrets/key.txt')).toBe('old\n');
    expect(r.asked).toEqual([]);
  });

  it('refuses it when the path differs only in case (a case-insensitive folder names the same file)', async () => {
    const r = await pluginWrite('Secrets/key.txt', 'yolo', RULES);
    // On a case-sensitive disk that is another (missing) file; either way nothing under secrets/ changed.
    expect(await r.read('secrets/key.txt')).toBe('old\n');
  });

  it('judges the real path behind a symbolic link too: a link into secrets/ cannot detour the deny, a link out of src/ cannot widen the allow', async () => {
    const detour = await pluginWrite('notes/key.txt', 'yolo', RULES, { notes: 'secrets' });
    expect(await detour.read('secrets/key.txt')).toBe('old\n');
    expect(detour.asked).toEqual([]);
    await server?.close();
    server = undefined;
    const widened = await pluginWrite('src/lnk/notes.txt', 'ask', RULES, { 'src/lnk': '..' });
    expect(widened.asked).toEqual(['src/lnk/notes.txt']);
  });

  it('writes unasked where an allow rule covers it in ask mode, and asks elsewhere', async () => {
    const allowed = await pluginWrite('src/a.txt', 'ask', RULES);
    expect(allowed.asked).toEqual([]);
    expect(await allowed.read('src/a.txt')).toBe('new\n');
    await server?.close();
    server = undefined;
    const other = await pluginWrite('notes.txt', 'ask', RULES);
    expect(other.asked).toEqual(['notes.txt']);
    expect(await other.read('notes.txt')).toBe('new\n');
  });
});
