// Settings → Plugins end to end in the built app: import the real example packages, refuse a hostile one with its
// code, enable per workspace, run tools through "Try a tool" (the agent's invocation path) with the write
// approval showing the diff, see the change in the Files panel, and keep a plugin's KV across a reload.
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { packPackage, readPackageZip, writeZip } from '../plugin-host';
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

const PLUGINS = resolve(import.meta.dirname, '../dist/plugins');
const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
let server: ServedBuild;
let browser: AppBrowser;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await serveBuild();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.dispose();
  await server?.close();
});

async function openPlugins(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Plugins' }).click();
  return settings;
}

async function importPackage(settings: Locator, name: string, buffer: Buffer): Promise<string> {
  const result = settings.getByTestId('plugin-import-result');
  await settings
    .getByLabel('Import plugin (.hplugin.zip)')
    .setInputFiles({ name, mimeType: 'application/zip', buffer });
  await result.waitFor();
  return (await result.textContent()) ?? '';
}

const card = (settings: Locator, id: string) => settings.locator(`li.plugin-card[data-plugin-id="${id}"]`);

type Panel = { panel: Locator; run: number };

/** Opens a card's Try panel unless it is open: reads the button's state (which waits for the card) rather than
 *  the panel's visibility at one instant, so a card that is briefly not in the page is not toggled closed. */
async function openTry(settings: Locator, id: string): Promise<Locator> {
  const c = card(settings, id);
  const button = c.getByRole('button', { name: 'Try a tool' });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return c.getByRole('region', { name: 'Try a tool' });
}

async function tryTool(settings: Locator, id: string, tool: string, args: unknown): Promise<Panel> {
  const panel = await openTry(settings, id);
  await panel.getByLabel('Tool').selectOption(tool);
  await panel.getByLabel('Arguments (JSON)').fill(JSON.stringify(args));
  const previous = Number(
    (await panel
      .getByTestId('try-outcome')
      .getAttribute('data-run', { timeout: 100 })
      .catch(() => '0')) ?? 0,
  );
  await panel.getByRole('button', { name: 'Run' }).click();
  return { panel, run: previous + 1 };
}

/** Records, from now on, whether the element matched by `selector` (or anything holding it) leaves the page,
 *  even for a moment: a card that blinks out while its state reloads loses what a person was doing in it. */
async function watchRemoval(page: Page, selector: string): Promise<() => Promise<boolean>> {
  const key = `removal-${Math.random().toString(36).slice(2)}`;
  await page.evaluate(
    ({ selector, key }) => {
      const el = document.querySelector(selector);
      if (!el) throw new Error(`nothing matches ${selector}`);
      const seen = { removed: false };
      (window as unknown as Record<string, unknown>)[key] = seen;
      new MutationObserver((records) => {
        for (const r of records) for (const n of r.removedNodes) if (n === el || n.contains(el)) seen.removed = true;
      }).observe(document.body, { childList: true, subtree: true });
    },
    { selector, key },
  );
  return () => page.evaluate((key) => (window as unknown as Record<string, { removed: boolean }>)[key]!.removed, key);
}

/** Waits until the card has no enable/disable in flight. */
const settled = (settings: Locator, id: string) =>
  settings.locator(`li.plugin-card[data-plugin-id="${id}"]:not([aria-busy="true"])`).waitFor();

const outcomeOf = async ({ panel, run }: Panel) => {
  const o = panel.locator(`[data-testid="try-outcome"][data-run="${run}"]`);
  await o.waitFor();
  return (await o.locator('pre').textContent()) ?? '';
};

it('imports, refuses a hostile package, enables per workspace, runs tools with approved and denied writes, and keeps KV across a reload', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  const workspace = 'Plugin playground';
  await createPrivateWorkspace(page, workspace);
  await createFileThroughUi(page, 'notes.txt', 'hello world\n');
  await page.getByRole('dialog', { name: 'notes.txt' }).getByRole('button', { name: 'Close' }).click();

  let settings = await openPlugins(page);
  // A hostile package: the real one plus an extra entry. Refused with its code, nothing installed.
  const replaceText = await readFile(resolve(PLUGINS, 'replace-text.hplugin.zip'));
  const entries = await readPackageZip(new Uint8Array(replaceText));
  const hostile = await writeZip([
    ...Object.entries(entries).map(([name, data]) => ({ name, data })),
    { name: 'extra.txt', data: new TextEncoder().encode('surprise') },
  ]);
  const refused = await importPackage(settings, 'hostile.hplugin.zip', Buffer.from(hostile));
  expect(refused).toMatch(/refused; nothing was installed.*E_PACKAGE_UNEXPECTED_ENTRY/s);
  expect(await settings.locator('li.plugin-card').count()).toBe(0);

  expect(await importPackage(settings, 'replace-text.hplugin.zip', replaceText)).toContain('Replace text');
  const rt = card(settings, 'example.replace-text');
  await rt.waitFor();
  expect(await rt.getByTestId('plugin-sha256').textContent()).toMatch(/^[0-9a-f]{64}$/);
  expect(await rt.textContent()).toContain('proves integrity');
  // Installing does not enable.
  const enable = rt.getByLabel(`Enabled in ${workspace}`);
  expect(await enable.isChecked()).toBe(false);
  await rt.getByRole('button', { name: 'Try a tool' }).click();
  await rt.getByText('Enable this plugin for a workspace first.').waitFor();
  // Enabling keeps the open Try panel in place and turns it into the form (the card used to leave the page while
  // its state reloaded, and a click made then closed the panel).
  const rtPanelRemoved = await watchRemoval(
    page,
    'li.plugin-card[data-plugin-id="example.replace-text"] section.try-tool',
  );
  await enable.check();
  await rt.getByRole('region', { name: 'Try a tool' }).getByLabel('Tool').waitFor();
  await settled(settings, 'example.replace-text');
  expect(await enable.isChecked()).toBe(true);
  expect(await rtPanelRemoved()).toBe(false);

  // Approve: the prompt shows the diff, the file changes.
  let panel = await tryTool(settings, 'example.replace-text', 'replace_text', {
    path: 'notes.txt',
    find: 'world',
    replace: 'plugins',
  });
  const approval = page.getByRole('dialog', { name: 'example.replace-text wants to write notes.txt' });
  await approval.waitFor();
  const diff = (await approval.getByTestId('write-diff').textContent()) ?? '';
  expect(diff).toContain('-hello world');
  expect(diff).toContain('+hello plugins');
  await page.screenshot({ path: resolve(ARTIFACTS, 'plugin-write-approval.png') });
  await approval.getByRole('button', { name: 'Allow this write' }).click();
  expect(await outcomeOf(panel)).not.toMatch(/^E_/);
  await page.screenshot({ path: resolve(ARTIFACTS, 'plugin-settings.png') });

  // Deny: unchanged, and the refusal code is shown.
  panel = await tryTool(settings, 'example.replace-text', 'replace_text', {
    path: 'notes.txt',
    find: 'plugins',
    replace: 'nobody',
  });
  await approval.waitFor();
  await approval.getByRole('button', { name: 'Deny' }).click();
  expect(await outcomeOf(panel)).toContain('E_HOST_WRITE_DENIED');

  // Arguments are checked against the tool's schema before anything runs.
  panel = await tryTool(settings, 'example.replace-text', 'replace_text', { path: 'notes.txt' });
  expect(await outcomeOf(panel)).toMatch(/^E_TOOL_ARGS_INVALID: At arguments/);

  await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
  await settings.waitFor({ state: 'detached' });
  expect(await readFileThroughUi(page, 'notes.txt')).toBe('hello plugins\n');

  // word-count, list-tree and notes.
  settings = await openPlugins(page);
  // Importing more plugins keeps the cards already shown, with their open Try panels.
  const rtPanel = await openTry(settings, 'example.replace-text');
  await rtPanel.getByLabel('Tool').waitFor();
  const rtRemoved = await watchRemoval(page, 'li.plugin-card[data-plugin-id="example.replace-text"] section.try-tool');
  for (const name of ['word-count', 'list-tree', 'notes']) {
    await importPackage(settings, `${name}.hplugin.zip`, await readFile(resolve(PLUGINS, `${name}.hplugin.zip`)));
    const enableIt = card(settings, `example.${name}`).getByLabel(`Enabled in ${workspace}`);
    await enableIt.check();
    await settled(settings, `example.${name}`);
    expect(await enableIt.isChecked()).toBe(true);
  }
  expect(await rtRemoved()).toBe(false);
  expect(await rtPanel.getByLabel('Tool').isVisible()).toBe(true);
  panel = await tryTool(settings, 'example.word-count', 'count_words', { path: 'notes.txt' });
  expect(await outcomeOf(panel)).toContain('2');
  panel = await tryTool(settings, 'example.list-tree', 'list_tree', {});
  expect(await outcomeOf(panel)).toContain('notes.txt');
  panel = await tryTool(settings, 'example.notes', 'add_note', { text: 'remember the milk' });
  expect(await outcomeOf(panel)).not.toMatch(/^E_/);

  // Same id and version, other bytes: nothing changes unless the update is confirmed.
  const { bytes: other } = await packPackage({
    manifest: entries['manifest.json'],
    wasm: new Uint8Array([...entries['plugin.wasm'], 0x00, 0x03, 0x01, 0x78, 0x01]),
    license: entries.LICENSE,
  });
  await settings
    .getByLabel('Import plugin (.hplugin.zip)')
    .setInputFiles({ name: 'other.hplugin.zip', mimeType: 'application/zip', buffer: Buffer.from(other) });
  const update = page.getByRole('dialog', { name: 'Update Replace text?' });
  await update.waitFor();
  expect(await update.textContent()).toContain('same version number but other code');
  await update.getByRole('button', { name: 'Cancel', exact: true }).last().click();
  await update.waitFor({ state: 'detached' });

  await page.reload();
  await page.getByRole('navigation').waitFor();
  settings = await openPlugins(page);
  panel = await tryTool(settings, 'example.notes', 'list_notes', {});
  expect(await outcomeOf(panel)).toContain('remember the milk');
  await page.screenshot({ path: resolve(ARTIFACTS, 'plugin-try-notes.png') });
});

it('says on the card why enabling failed and leaves the box unticked when the browser refuses the write', async () => {
  const own = await launchBrowser();
  try {
    const { page } = own;
    await openApp(page, server.url);
    const workspace = 'Full disk';
    await createPrivateWorkspace(page, workspace);
    const settings = await openPlugins(page);
    await importPackage(settings, 'word-count.hplugin.zip', await readFile(resolve(PLUGINS, 'word-count.hplugin.zip')));
    const wc = card(settings, 'example.word-count');
    const enable = wc.getByLabel(`Enabled in ${workspace}`);
    const panel = await openTry(settings, 'example.word-count');
    await panel.getByText('Enable this plugin for a workspace first.').waitFor();
    // IndexedDB refuses writes to the enablement store, as it does when the origin is out of quota.
    await page.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      const w = window as unknown as { refuseEnablement: boolean };
      w.refuseEnablement = true;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        if (w.refuseEnablement && this.name === 'plugin_enablement')
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return put.apply(this, args);
      };
    });
    await enable.click();
    const error = wc.getByTestId('plugin-enable-error');
    await error.waitFor();
    await settled(settings, 'example.word-count');
    expect(await error.textContent()).toMatch(
      /^E_PLUGIN_ENABLE_FAILED: Could not save that Word count is enabled in Full disk \(.*quota.*\); it stays off\. Try again/,
    );
    expect(await error.getAttribute('role')).toBe('alert');
    expect(await enable.isChecked()).toBe(false);
    expect(await panel.getByText('Enable this plugin for a workspace first.').isVisible()).toBe(true);

    // Once the browser accepts the write again, the same box works and the message goes away.
    await page.evaluate(() => ((window as unknown as { refuseEnablement: boolean }).refuseEnablement = false));
    await enable.check();
    await settled(settings, 'example.word-count');
    expect(await enable.isChecked()).toBe(true);
    expect(await error.count()).toBe(0);
    await panel.getByLabel('Tool').waitFor();
  } finally {
    await own.dispose();
  }
});
