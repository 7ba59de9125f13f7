// A WASM plugin as an agent tool in the built app: import and enable the real replace-text package in Settings,
// ask in the chat; the scripted model calls the plugin's public tool name; the person allows the call, then the
// plugin's write on the chat's own card (path and diff shown); the file changes in the Files panel and the
// model's final answer is shown.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatLog, configureModel, importAndEnablePlugin, sendMessage } from './agent-steps';
import {
  createFileThroughUi,
  createPrivateWorkspace,
  launchBrowser,
  openApp,
  readFileThroughUi,
  serveBuild,
  type AppBrowser,
  type ServedBuild,
} from './harness';
import { startModelServer, type ModelServer } from './model-server';

const PLUGINS = resolve(import.meta.dirname, '../dist/plugins');
const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
/** plugin-host/runtime/tool-names.ts: id `example.replace-text` + tool `replace_text`. */
const TOOL = 'example_replace-text--replace_text';
let app: ServedBuild;
let browser: AppBrowser;
let model: ModelServer | undefined;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await serveBuild();
  browser = await launchBrowser();
});
afterAll(async () => {
  await model?.close();
  await browser?.dispose();
  await app?.close();
});

it('calls an enabled plugin tool after the person allows the call and then its write with the diff shown', async () => {
  model = await startModelServer({
    script: [
      {
        expect: (r) => {
          const names = ((r.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
          if (!names.includes(TOOL)) throw new Error(`the plugin tool is not offered: ${names.join(', ')}`);
        },
        toolCalls: [{ name: TOOL, arguments: { path: 'notes.txt', find: 'world', replace: 'plugins' } }],
      },
      { text: 'Replaced **world** with plugins.' },
    ],
  });
  const { page } = browser;
  await openApp(page, app.url);
  const workspace = 'Agent plugin';
  await createPrivateWorkspace(page, workspace);
  await createFileThroughUi(page, 'notes.txt', 'hello world\n');
  await page.getByRole('dialog', { name: 'notes.txt' }).getByRole('button', { name: 'Close' }).click();
  await importAndEnablePlugin(
    page,
    { name: 'replace-text.hplugin.zip', buffer: await readFile(resolve(PLUGINS, 'replace-text.hplugin.zip')) },
    'example.replace-text',
    workspace,
  );
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-plugin' });

  await sendMessage(page, 'Replace world with plugins in notes.txt');
  const call = page.getByRole('group', { name: `Allow ${TOOL}?` });
  await call.waitFor();
  await call.getByRole('button', { name: 'Allow', exact: true }).click();

  const write = page.getByRole('group', { name: 'Allow plugin example.replace-text to write notes.txt?' });
  await write.waitFor();
  const diff = (await write.getByLabel('Changes').textContent()) ?? '';
  expect(diff).toContain('-hello world');
  expect(diff).toContain('+hello plugins');
  expect(await write.getByRole('button', { name: /Always allow/ }).count()).toBe(0);
  expect(await readFileThroughUi(page, 'notes.txt')).toBe('hello world\n');
  await page.screenshot({ path: resolve(ARTIFACTS, 'chat-plugin-write-approval.png') });
  await write.getByRole('button', { name: 'Allow', exact: true }).click();

  await chatLog(page).getByText('Replaced').waitFor();
  expect(await readFileThroughUi(page, 'notes.txt')).toBe('hello plugins\n');
  expect(model.failures).toEqual([]);
  expect(model.requests).toHaveLength(2);
  const toolResult = ((model.requests[1]!.body?.messages ?? []) as { role: string; content: string }[]).find(
    (m) => m.role === 'tool',
  );
  expect(toolResult?.content).not.toMatch(/^E_/);
});
