// Protected paths in the built app (issue 13). (a) The real replace-text plugin, called by the scripted model with a
// dot-padded path that normalises to .git/config, reads it but its write is refused with E_PATH_PROTECTED before
// anyone is asked; the call card and the tool card show the normalised path, and .git/config is unchanged.
// (b) In approval mode auto, a plain write runs unasked but an edit of .vscode/settings.json asks, and the card
// says why; it is applied once allowed. (c) With "Allow the agent to write inside .git" on for the workspace, the same
// plugin write goes through after the person allows it on a card titled `"raw" → .git/config`. (d) "Always allow edit
// in this session" does not cover .vscode/settings.json: its card still appears.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import {
  chatLog,
  configureModel,
  importAndEnablePlugin,
  sendMessage,
  setApprovalMode,
  waitForTurnEnd,
} from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer } from './model-server';

const PLUGINS = resolve(import.meta.dirname, '../dist/plugins');
const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
/** plugin-host/runtime/tool-names.ts: id `example.replace-text` + tool `replace_text`. */
const TOOL = 'example_replace-text--replace_text';
const DETOUR = 'notes.md/./././../.git/config';
const served = useServedApp();
let model: ModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

/** web/core/workspaces/opfs.ts: a private workspace is OPFS `workspaces/<id>`. Written and read beside the UI. */
async function opfsFile(page: Page, workspaceId: string, path: string, text?: string): Promise<string | null> {
  return page.evaluate(
    async ({ workspaceId, path, text }) => {
      let dir = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(workspaceId);
      const names = path.split('/');
      for (const name of names.slice(0, -1)) dir = await dir.getDirectoryHandle(name, { create: text !== undefined });
      const handle = await dir.getFileHandle(names.at(-1)!, { create: text !== undefined }).catch(() => null);
      if (!handle) return null;
      if (text !== undefined) {
        const w = await handle.createWritable();
        await w.write(text);
        await w.close();
      }
      return (await handle.getFile()).text();
    },
    { workspaceId, path, ...(text !== undefined ? { text } : {}) },
  );
}

it('refuses a plugin write to a dot-padded .git/config path and shows the normalised path', async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  model = await startModelServer({
    script: [
      {
        toolCalls: [
          { name: TOOL, arguments: { path: DETOUR, find: 'bare = false', replace: 'fsmonitor = "touch /tmp/pwned"' } },
        ],
      },
      { text: 'The plugin could not write it.' },
    ],
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const workspace = 'Protected git';
  const id = await createPrivateWorkspace(page, workspace);
  await opfsFile(page, id, '.git/config', '[core]\n\tbare = false\n');
  await importAndEnablePlugin(
    page,
    { name: 'replace-text.hplugin.zip', buffer: await readFile(resolve(PLUGINS, 'replace-text.hplugin.zip')) },
    'example.replace-text',
    workspace,
  );
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-protected' });

  await sendMessage(page, 'Tidy the git config');
  const call = page.getByRole('group', { name: `Allow ${TOOL}?` });
  await call.waitFor();
  expect(await call.getByTestId('call-path').textContent()).toBe(`Path: "${DETOUR}" → .git/config`);
  await call.getByRole('button', { name: 'Allow', exact: true }).click();

  await chatLog(page).getByText('The plugin could not write it.').waitFor();
  await waitForTurnEnd(page);
  // Refused before asking: no write card ever appeared, and the file is as it was.
  expect(await page.locator('.approval-card[data-kind="write"]').count()).toBe(0);
  expect(await opfsFile(page, id, '.git/config')).toBe('[core]\n\tbare = false\n');
  const card = chatLog(page).locator(`[data-tool="${TOOL}"]`);
  // The one-line brief names the file used first; the open card shows `raw → normalised` in full.
  expect(await card.locator('.tool-brief').textContent()).toBe(`.git/config ← "${DETOUR}"`);
  await card.locator('summary').click();
  expect(await card.getByTestId('tool-path').textContent()).toBe(`Path: "${DETOUR}" → .git/config`);
  const output = (await card.locator('.tool-output').textContent()) ?? '';
  expect(output).toContain('E_PATH_PROTECTED');
  expect(output).toContain('→ .git/config is refused');
  await page.screenshot({ path: resolve(ARTIFACTS, 'chat-protected-git-refused.png') });
  const toolMessage = ((model.requests[1]!.body?.messages ?? []) as { role: string; content: string }[]).find(
    (m) => m.role === 'tool',
  );
  expect(toolMessage?.content).toContain('E_PATH_PROTECTED');
  expect(model.failures).toEqual([]);
});

it('asks before an edit of .vscode/settings.json in auto mode and says why', async () => {
  model = await startModelServer({
    script: [
      { toolCalls: [{ name: 'write', arguments: { path: 'notes.txt', content: 'plain\n' } }] },
      {
        toolCalls: [
          {
            name: 'edit',
            arguments: { path: './.vscode/settings.json', old_string: '{}', new_string: '{"editor.tabSize": 2}' },
          },
        ],
      },
      { text: 'Both done.' },
    ],
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const id = await createPrivateWorkspace(page, 'Protected vscode');
  await opfsFile(page, id, '.vscode/settings.json', '{}\n');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-protected' });
  await setApprovalMode(page, 'Auto');

  await sendMessage(page, 'Set the tab size');
  const card = page.getByRole('group', { name: 'Allow edit?' });
  await card.waitFor();
  // The plain write before it ran without a card (auto mode).
  expect(await opfsFile(page, id, 'notes.txt')).toBe('plain\n');
  expect(await card.getAttribute('data-path')).toBe('.vscode/settings.json');
  expect(await card.locator('.approval-summary').first().textContent()).toBe(
    'Edit "./.vscode/settings.json" → .vscode/settings.json (1 replacement)',
  );
  expect(await card.getByTestId('ask-reason').textContent()).toContain(
    'opening this folder in VS Code applies settings and tasks from this file',
  );
  expect(await card.getByRole('button', { name: /Always allow/ }).count()).toBe(0);
  expect((await card.getByLabel('Changes').textContent()) ?? '').toContain('+++ b/.vscode/settings.json');
  await page.screenshot({ path: resolve(ARTIFACTS, 'chat-protected-vscode-asks.png') });
  await card.getByRole('button', { name: 'Allow', exact: true }).click();

  await chatLog(page).getByText('Both done.').waitFor();
  await waitForTurnEnd(page);
  expect(await opfsFile(page, id, '.vscode/settings.json')).toBe('{"editor.tabSize": 2}\n');
  expect(model.failures).toEqual([]);
});

it('lets the plugin write inside .git once the workspace allows it, asking with "raw → normalised" on the card', async () => {
  model = await startModelServer({
    script: [
      { toolCalls: [{ name: TOOL, arguments: { path: DETOUR, find: 'bare = false', replace: 'bare = true' } }] },
      { text: 'Changed.' },
    ],
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const workspace = 'Allowed git';
  const id = await createPrivateWorkspace(page, workspace);
  await opfsFile(page, id, '.git/config', '[core]\n\tbare = false\n');
  await importAndEnablePlugin(
    page,
    { name: 'replace-text.hplugin.zip', buffer: await readFile(resolve(PLUGINS, 'replace-text.hplugin.zip')) },
    'example.replace-text',
    workspace,
  );
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-protected' });
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Workspaces' }).click();
  const row = settings.locator('li.settings-row').filter({ hasText: workspace });
  await row.getByLabel('Allow the agent to write inside .git').check();
  await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
  await settings.waitFor({ state: 'detached' });

  await sendMessage(page, 'Make it a bare repository');
  await page
    .getByRole('group', { name: `Allow ${TOOL}?` })
    .getByRole('button', { name: 'Allow', exact: true })
    .click();
  const write = page.getByRole('group', {
    name: `Allow plugin example.replace-text to write "${DETOUR}" → .git/config?`,
  });
  await write.waitFor();
  expect(await write.getAttribute('data-path')).toBe('.git/config');
  expect((await write.getByLabel('Changes').textContent()) ?? '').toContain('+++ b/.git/config');
  await write.getByRole('button', { name: 'Allow', exact: true }).click();
  await chatLog(page).getByText('Changed.').waitFor();
  await waitForTurnEnd(page);
  expect(await opfsFile(page, id, '.git/config')).toBe('[core]\n\tbare = true\n');
  expect(model.failures).toEqual([]);
});

it('still asks about .vscode/settings.json after "Always allow edit in this session"', async () => {
  model = await startModelServer({
    script: [
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'a', new_string: 'b' } }] },
      {
        toolCalls: [
          { name: 'edit', arguments: { path: '.vscode/settings.json', old_string: '{}', new_string: '{"x": 1}' } },
        ],
      },
      { text: 'Stopped at the settings.' },
    ],
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const id = await createPrivateWorkspace(page, 'Protected always');
  await opfsFile(page, id, 'notes.txt', 'a\n');
  await opfsFile(page, id, '.vscode/settings.json', '{}\n');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-protected' });

  await sendMessage(page, 'Edit both');
  await page
    .getByRole('group', { name: 'Allow edit?' })
    .getByRole('button', { name: 'Always allow edit in this session' })
    .click();
  const card = page.locator('.approval-card[data-path=".vscode/settings.json"]');
  await card.waitFor();
  expect(await opfsFile(page, id, 'notes.txt')).toBe('b\n');
  expect(await card.getByRole('button', { name: /Always allow/ }).count()).toBe(0);
  await card.getByRole('button', { name: 'Deny', exact: true }).click();
  await chatLog(page).getByText('Stopped at the settings.').waitFor();
  await waitForTurnEnd(page);
  expect(await opfsFile(page, id, '.vscode/settings.json')).toBe('{}\n');
  expect(model.failures).toEqual([]);
});
