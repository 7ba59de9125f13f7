// The Files panel as a tree in the built app: folders open in place (mouse and keys), a file opens highlighted, a
// file the agent just wrote shows up without Refresh, "Download as .zip" streams into the chosen file with a
// progress bar, and "Import .zip" makes a new private workspace — or, for a hostile archive, refuses with its code
// and makes none.
import { Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter, type FileEntry } from '@zip.js/zip.js';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { configureModel, sendMessage, setApprovalMode, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer } from './model-server';

/** Chrome's save picker cannot be automated: this one returns a file in the origin private file system. */
const savePickerSubstitute = `(() => {
  window.showSaveFilePicker = async ({ suggestedName }) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('saved', { create: true });
    return dir.getFileHandle(suggestedName, { create: true });
  };
})();`;

const app = useServedApp({ initScripts: [savePickerSubstitute] });

const tree = (page: Page) => page.getByRole('tree', { name: 'Files' });
const item = (page: Page, path: string) => tree(page).locator(`[role="treeitem"][data-path="${path}"]`);

/** Writes files into a private workspace's OPFS folder behind the app's back. */
async function plant(page: Page, id: string, files: Record<string, string>) {
  await page.evaluate(
    async ([wid, all]) => {
      const root = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(wid);
      for (const [path, text] of Object.entries(all)) {
        const parts = path.split('/');
        let dir = root;
        for (const p of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(p, { create: true });
        const w = await (await dir.getFileHandle(parts.at(-1) as string, { create: true })).createWritable();
        await w.write(text);
        await w.close();
      }
    },
    [id, files] as const,
  );
}

/** The panel may start collapsed (narrow windows, or the person closed it). Its toggle says whether it is open;
 * the Refresh button alone does not (a workspace still opening shows the panel without it). */
async function showFiles(page: Page) {
  const toggle = page.getByRole('button', { name: 'Toggle files panel' });
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await page.getByRole('button', { name: 'Refresh' }).waitFor();
}

it('opens and closes folders in place with the mouse and the arrow keys', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  const id = await createPrivateWorkspace(page, 'Tree');
  await plant(page, id, { 'README.md': '# hi', 'src/main.ts': 'export const answer = 42;\n', 'src/lib/util.ts': 'y' });
  await showFiles(page);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await item(page, 'src').click();
  expect(await item(page, 'src').getAttribute('aria-expanded')).toBe('true');
  await item(page, 'src/lib').waitFor();
  expect(await item(page, 'src/lib').getAttribute('aria-level')).toBe('2');

  // Keys: Right opens lib and steps in, Down moves, Left steps out, then closes.
  await item(page, 'src/lib').focus();
  await page.keyboard.press('ArrowRight');
  await item(page, 'src/lib/util.ts').waitFor();
  await page.keyboard.press('ArrowRight');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('data-path'))).toBe('src/lib/util.ts');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  expect(await item(page, 'src/lib').getAttribute('aria-expanded')).toBe('false');
  expect(await item(page, 'src/lib/util.ts').count()).toBe(0);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  // The file opens with syntax highlighting (Shiki, loaded on first use), its text unchanged.
  const preview = page.getByRole('dialog', { name: 'src/main.ts' }).getByLabel('File preview');
  await preview.locator('code.hl span[class^="hl-"]').first().waitFor();
  expect(await preview.textContent()).toBe('export const answer = 42;\n');
  await page.keyboard.press('Escape');

  await item(page, 'src').click();
  expect(await item(page, 'src/main.ts').count()).toBe(0);
});

it('keeps the open folders and the scroll position when it reads the files again', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Scrolled');
  const many: Record<string, string> = {};
  for (let i = 0; i < 80; i++) many[`lib/file-${String(i).padStart(2, '0')}.ts`] = 'x';
  await plant(page, id, many);
  await showFiles(page);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await item(page, 'lib').click();
  await item(page, 'lib/file-79.ts').waitFor();
  const scroller = tree(page);
  await scroller.evaluate((el) => (el.scrollTop = 600));
  const before = await scroller.evaluate((el) => el.scrollTop);
  expect(before).toBeGreaterThan(0);
  await plant(page, id, { 'lib/file-80.ts': 'new' });
  await page.getByRole('button', { name: 'Refresh' }).click();
  await item(page, 'lib/file-80.ts').waitFor();
  expect(await scroller.evaluate((el) => el.scrollTop)).toBe(before);
  expect(await item(page, 'lib').getAttribute('aria-expanded')).toBe('true');
});

it('shows a file the agent just wrote, keeping open folders, without Refresh', async () => {
  const model = await startModelServer({
    script: [
      { toolCalls: [{ name: 'write', arguments: { path: 'docs/agent-note.md', content: 'written by the agent' } }] },
      { text: 'Wrote it.' },
    ],
  });
  try {
    const { page } = app.browser;
    const id = await createPrivateWorkspace(page, 'Agent writes');
    await plant(page, id, { 'docs/old.md': 'old' });
    await showFiles(page);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await item(page, 'docs').click();
    await item(page, 'docs/old.md').waitFor();
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await setApprovalMode(page, 'Auto');
    // No focus or visibility event may do the refresh for us during the turn.
    await page.evaluate(() => {
      window.addEventListener('focus', (e) => e.stopImmediatePropagation(), { capture: true });
    });
    await sendMessage(page, 'Write a note.');
    await waitForTurnEnd(page);
    await item(page, 'docs/agent-note.md').waitFor({ timeout: 5000 });
    expect(await item(page, 'docs').getAttribute('aria-expanded')).toBe('true');
    expect(model.failures).toEqual([]);
  } finally {
    await model.close();
  }
});

it('downloads the workspace as a .zip into the chosen file, with progress in files and bytes, .git left out', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Zipped');
  const files: Record<string, string> = { '.git/HEAD': 'ref: refs/heads/main' };
  for (let i = 0; i < 300; i++) files[`src/part-${String(i).padStart(3, '0')}.txt`] = `line ${i}\n`.repeat(50);
  await plant(page, id, files);
  await showFiles(page);
  await page.getByRole('button', { name: 'Download as .zip' }).click();
  const dialog = page.getByRole('dialog', { name: 'Download as .zip' });
  await dialog.getByRole('button', { name: 'Download', exact: true }).click();
  const bar = dialog.getByRole('progressbar', { name: 'Download progress' });
  await dialog.getByText(/^Saved Zipped\.zip: 300 files, /).waitFor();
  expect(await bar.getAttribute('value')).toBe(await bar.getAttribute('max'));
  expect(await dialog.getByRole('status').first().textContent()).toMatch(
    /^300 of 300 files · 102(\.\d)? kB of 102(\.\d)? kB$|^300 of 300 files · /,
  );
  await page.keyboard.press('Escape');

  const bytes = await page.evaluate(async () => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('saved');
    return [...new Uint8Array(await (await (await dir.getFileHandle('Zipped.zip')).getFile()).arrayBuffer())];
  });
  const entries = await new ZipReader(new Uint8ArrayReader(Uint8Array.from(bytes)), {
    useWebWorkers: false,
  }).getEntries();
  const names = entries.map((e) => e.filename);
  expect(names).toHaveLength(300);
  expect(names).not.toContain('.git/HEAD');
  const first = entries.find((e) => e.filename === 'src/part-000.txt') as FileEntry;
  expect(new TextDecoder().decode(await first.getData(new Uint8ArrayWriter()))).toBe('line 0\n'.repeat(50));
});

async function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const zip = new ZipWriter(new Uint8ArrayWriter(), { useWebWorkers: false });
  for (const [name, text] of Object.entries(entries))
    await zip.add(name, new Uint8ArrayReader(new TextEncoder().encode(text)));
  return Buffer.from(await zip.close());
}

it('imports a .zip into a new private workspace, and refuses a zip-slip archive creating nothing', async () => {
  const { page } = app.browser;
  const open = async () => {
    await page.getByRole('button', { name: 'New workspace' }).click();
    const dialog = page.getByRole('dialog', { name: 'New workspace' });
    await dialog.getByLabel('A .zip archive, unpacked privately in this browser').check();
    return dialog;
  };
  const before = await page.getByRole('navigation').getByRole('link').count();
  let dialog = await open();
  await dialog.getByLabel('.zip file').setInputFiles({
    name: 'evil.zip',
    mimeType: 'application/zip',
    buffer: await zipOf({ 'ok.txt': 'fine', '../escape.txt': 'no' }),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await dialog
    .getByRole('alert')
    .filter({ hasText: /^E_PACKAGE_ENTRY_NAME: The entry "\.\.\/escape\.txt" cannot be unpacked/ })
    .waitFor();
  expect(await page.getByRole('navigation').getByRole('link').count()).toBe(before);
  await page.keyboard.press('Escape');

  dialog = await open();
  await dialog.getByLabel('.zip file').setInputFiles({
    name: 'project.zip',
    mimeType: 'application/zip',
    buffer: await zipOf({ 'README.md': '# Project', 'src/app.ts': 'export {}' }),
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1, name: 'project' }).waitFor();
  await showFiles(page);
  await item(page, 'src').click();
  await item(page, 'src/app.ts').waitFor();
  await item(page, 'README.md').waitFor();
});
