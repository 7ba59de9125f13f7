// Plugin updates in the built app: importing an installed id with other code shows old → new version and SHA-256
// and that the private storage stays, and changes nothing until "Update plugin"; Cancel and Escape keep the old
// version running; the update keeps the KV data; the same package again is "already installed"; uninstall says
// the data stays, and a reinstall finds it. Names from a manifest show hidden characters as escapes.
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { packPackage, readPackageZip } from '../plugin-host';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const PLUGINS = resolve(import.meta.dirname, '../dist/plugins');
const SHOTS = '/tmp/shots';
const app = useServedApp();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The notes example as v1 (as built) and v2: version 2.0.0, other code (a custom section appended), and read
 *  access to the workspace, which v1 did not ask for. */
async function notesPackages() {
  const v1 = new Uint8Array(await readFile(resolve(PLUGINS, 'notes.hplugin.zip')));
  const entries = await readPackageZip(v1);
  const manifest = {
    ...JSON.parse(new TextDecoder().decode(entries['manifest.json'])),
    version: '2.0.0',
    permissions: { workspace: 'read', storage: true },
  };
  const wasm2 = new Uint8Array([...entries['plugin.wasm'], 0x00, 0x03, 0x01, 0x78, 0x02]);
  const v2 = (await packPackage({ manifest, wasm: wasm2, license: entries.LICENSE })).bytes;
  return { v1, v2, sha1: sha256(entries['plugin.wasm']), sha2: sha256(wasm2) };
}

async function openPlugins(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Plugins' }).click();
  return settings;
}

const chooseFile = (settings: Locator, name: string, bytes: Uint8Array) =>
  settings
    .getByLabel('Import plugin (.hplugin.zip)')
    .setInputFiles({ name, mimeType: 'application/zip', buffer: Buffer.from(bytes) });

async function resultText(settings: Locator, contains: string): Promise<string> {
  const result = settings.getByTestId('plugin-import-result').filter({ hasText: contains });
  await result.waitFor();
  return (await result.textContent()) ?? '';
}

const card = (settings: Locator) => settings.locator('li.plugin-card[data-plugin-id="example.notes"]');

async function runNotes(settings: Locator, tool: string, args: unknown): Promise<string> {
  const c = card(settings);
  const button = c.getByRole('button', { name: 'Try a tool' });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  const panel = c.getByRole('region', { name: 'Try a tool' });
  await panel.getByLabel('Tool').selectOption(tool);
  await panel.getByLabel('Arguments (JSON)').fill(JSON.stringify(args));
  const before = Number(
    (await panel
      .getByTestId('try-outcome')
      .getAttribute('data-run', { timeout: 100 })
      .catch(() => '0')) ?? 0,
  );
  await panel.getByRole('button', { name: 'Run' }).click();
  const outcome = panel.locator(`[data-testid="try-outcome"][data-run="${before + 1}"]`);
  await outcome.waitFor();
  return (await outcome.locator('pre').textContent()) ?? '';
}

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.screenshot({ path: resolve(SHOTS, `${name}-${width}-${scheme}.png`), animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

it('asks before updating a plugin, keeps the old one on Cancel or Escape, and keeps its storage through the update and an uninstall', async () => {
  mkdirSync(SHOTS, { recursive: true });
  const { page } = app.browser;
  const { v1, v2, sha1, sha2 } = await notesPackages();
  await openApp(page, app.server.url);
  const workspace = 'Update playground';
  await createPrivateWorkspace(page, workspace);
  const settings = await openPlugins(page);

  await chooseFile(settings, 'notes.hplugin.zip', v1);
  expect(await resultText(settings, 'installed')).toContain('Notes 1.0.0 installed');
  await card(settings).getByLabel(`Enabled in ${workspace}`).check();
  await settings.locator('li.plugin-card[data-plugin-id="example.notes"]:not([aria-busy="true"])').waitFor();
  expect(await runNotes(settings, 'add_note', { text: 'written by v1' })).not.toMatch(/^E_/);

  // v2: the dialog shows both versions and hashes before anything changes.
  const dialog = page.getByRole('dialog', { name: 'Update Notes?' });
  const askUpdate = async () => {
    await chooseFile(settings, 'notes-2.hplugin.zip', v2);
    await dialog.waitFor();
  };
  await askUpdate();
  expect(await dialog.getByTestId('update-from-version').textContent()).toBe('1.0.0');
  expect(await dialog.getByTestId('update-to-version').textContent()).toBe('2.0.0');
  const from = dialog.getByTestId('update-from-sha256');
  const to = dialog.getByTestId('update-to-sha256');
  expect(await from.textContent()).toBe(`${sha1.slice(0, 12)}…${sha1.slice(-8)}`);
  expect(await to.textContent()).toBe(`${sha2.slice(0, 12)}…${sha2.slice(-8)}`);
  expect(await from.getAttribute('title')).toBe(sha1);
  expect(await to.getAttribute('title')).toBe(sha2);
  expect(await dialog.getByTestId('update-storage').textContent()).toMatch(
    /private storage stays in every workspace: .*\(stored entries now: \d+\)/,
  );
  expect(await dialog.textContent()).toContain('Nothing has changed yet.');
  expect(await dialog.textContent()).toContain(
    'Workspace: none · Private storage: yes→ Workspace: read · Private storage: yes',
  );
  expect(await dialog.textContent()).toContain('asks for more access, so it will be switched off');
  // Focus starts on the safe choice.
  expect(await focusedText(page)).toBe('Cancel');
  // Copying the short hash copies the whole one.
  const copied = await from.evaluate((el) => {
    const data = new DataTransfer();
    el.dispatchEvent(new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true }));
    return data.getData('text/plain');
  });
  expect(copied).toBe(sha1);
  await shoot(page, 'plugin-update-dialog');

  // Escape cancels: v1 stays installed and still runs.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  expect(await resultText(settings, 'Nothing was changed')).toContain('Notes 1.0.0 stays installed');
  expect(await card(settings).getByTestId('plugin-sha256').textContent()).toBe(sha1);
  expect(await runNotes(settings, 'list_notes', {})).toContain('written by v1');

  // Cancel does the same.
  await askUpdate();
  await dialog.getByRole('button', { name: 'Cancel', exact: true }).last().click();
  await dialog.waitFor({ state: 'detached' });
  expect(await card(settings).getByTestId('plugin-sha256').textContent()).toBe(sha1);
  expect(await card(settings).getByText('Version 1.0.0').count()).toBe(1);

  // Confirm: v2 is installed, still enabled, and reads what v1 saved.
  await askUpdate();
  await dialog.getByRole('button', { name: 'Update plugin' }).click();
  expect(await resultText(settings, 'updated')).toContain(
    'Notes updated from 1.0.0 to 2.0.0. It asks for more than before, so it was switched off in 1 workspace(s)',
  );
  await card(settings).getByText('Version 2.0.0').waitFor();
  expect(await card(settings).getByTestId('plugin-sha256').textContent()).toBe(sha2);
  const enableV2 = card(settings).getByLabel(`Enabled in ${workspace}`);
  await settings.locator('li.plugin-card[data-plugin-id="example.notes"]:not([aria-busy="true"])').waitFor();
  expect(await enableV2.isChecked()).toBe(false);
  await enableV2.check();
  await settings.locator('li.plugin-card[data-plugin-id="example.notes"]:not([aria-busy="true"])').waitFor();
  expect(await runNotes(settings, 'list_notes', {})).toContain('written by v1');

  // The same package again changes nothing and says so, without a dialog.
  await chooseFile(settings, 'notes-2-again.hplugin.zip', v2);
  expect(await resultText(settings, 'already installed')).toContain('Notes 2.0.0 is already installed');
  expect(await dialog.count()).toBe(0);

  // Uninstall says the data stays (focus on Cancel); a reinstall finds it.
  await card(settings).getByRole('button', { name: 'Uninstall' }).click();
  const uninstall = page.getByRole('dialog', { name: 'Uninstall Notes?' });
  await uninstall.waitFor();
  await uninstall.getByTestId('uninstall-storage').filter({ hasText: 'stays in this browser' }).waitFor();
  expect(await focusedText(page)).toBe('Cancel');
  await shoot(page, 'plugin-uninstall-dialog');
  await uninstall.getByRole('button', { name: 'Uninstall' }).click();
  await card(settings).waitFor({ state: 'detached' });
  await chooseFile(settings, 'notes-2.hplugin.zip', v2);
  expect(await resultText(settings, 'installed')).toContain('Notes 2.0.0 installed');
  await card(settings).getByLabel(`Enabled in ${workspace}`).check();
  await settings.locator('li.plugin-card[data-plugin-id="example.notes"]:not([aria-busy="true"])').waitFor();
  expect(await runNotes(settings, 'list_notes', {})).toContain('written by v1');
});

it('shows bidi, zero-width and control characters of an installed plugin as visible escapes', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  const { v1, sha1 } = await notesPackages();
  const wasm = (await readPackageZip(v1))['plugin.wasm'];
  // A record as an older app version could have stored it, before the validator refused such names.
  await page.evaluate(
    async ({ wasm, sha }) => {
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const r = indexedDB.open('i-harness');
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      const meta = {
        id: 'example.sneaky',
        name: 'Safe\u202Etxt.exe',
        version: '1.0.0',
        sha256: sha,
        permissions: { workspace: 'none', storage: false },
        tools: [
          {
            name: 'list_notes',
            publicName: 'example_sneaky--list_notes',
            description: 'Lists\u200B notes\u001b[2J',
            parameters: { type: 'object' },
          },
        ],
        packageBytes: 1,
        importedAt: 0,
      };
      const tx = db.transaction('plugins', 'readwrite');
      tx.objectStore('plugins').put({
        pluginId: meta.id,
        version: meta.version,
        sha256: sha,
        meta,
        wasm: new Uint8Array(wasm),
        licenseText: 'MIT',
      });
      await new Promise((ok) => (tx.oncomplete = ok));
      db.close();
    },
    { wasm: [...wasm], sha: sha1 },
  );
  const settings = await openPlugins(page);
  const sneaky = settings.locator('li.plugin-card[data-plugin-id="example.sneaky"]');
  await sneaky.waitFor();
  expect(await sneaky.locator('h3').textContent()).toBe('Safe\\u202etxt.exe');
  const tools = (await sneaky.locator('.plugin-tools').textContent()) ?? '';
  expect(tools).toContain('Lists\\u200b notes\\x1b[2J');
  for (const hidden of ['\u200b', '\u202e', '\u001b']) expect(tools.includes(hidden)).toBe(false);
});
