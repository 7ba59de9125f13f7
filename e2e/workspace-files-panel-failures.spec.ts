// A demanding person's file panel: files that change or vanish outside the app, files and folders too big to show,
// mistyped paths, and access withdrawn while the app is open. Each failure names its code and what to do.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createPrivateWorkspace, folderPickerSubstitute, openApp, PICKED_FOLDER, useServedApp } from './harness';

const app = useServedApp({ initScripts: [folderPickerSubstitute] });

const files = (page: Page) => page.getByRole('tree', { name: 'Files' });
const row = (page: Page, name: string) => files(page).getByRole('treeitem', { name, exact: true });
/** What a person does after working in another program: come back to the browser window. */
const comeBack = (page: Page) => page.evaluate(() => window.dispatchEvent(new Event('focus')));

type Change = { write: string; text?: string; bytes?: number } | { remove: string } | { crowd: string; count: number };

/** Changes the OPFS directory of a private workspace the way another program would, behind the app's back. */
async function outside(page: Page, id: string, change: Change): Promise<void> {
  await page.evaluate(
    async ([wid, c]) => {
      const dir = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(wid);
      if ('remove' in c) return dir.removeEntry(c.remove);
      if ('crowd' in c) {
        const sub = await dir.getDirectoryHandle(c.crowd, { create: true });
        for (let i = 0; i < c.count; i++) await sub.getFileHandle(`f${i}`, { create: true });
        return;
      }
      const w = await (await dir.getFileHandle(c.write, { create: true })).createWritable();
      await w.write(c.bytes === undefined ? (c.text ?? '') : new Uint8Array(c.bytes).fill(97));
      await w.close();
    },
    [id, change] as const,
  );
}

it('drops a file removed outside the app from the list once opening it fails, and shows files added outside on return', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  const id = await createPrivateWorkspace(page, 'Changing');
  await outside(page, id, { write: 'keep.txt', text: 'keep' });
  await outside(page, id, { write: 'gone.txt', text: 'gone' });
  await comeBack(page);
  await row(page, 'gone.txt').waitFor();

  await outside(page, id, { remove: 'gone.txt' });
  await row(page, 'gone.txt').click();
  const preview = page.getByRole('dialog', { name: 'gone.txt' });
  expect(await preview.getByRole('alert').textContent()).toMatch(/^E_FS_NOT_FOUND: /);
  await preview.getByRole('button', { name: 'Close' }).click();
  await row(page, 'gone.txt').waitFor({ state: 'detached' });
  expect(await row(page, 'keep.txt').count()).toBe(1);

  await outside(page, id, { write: 'added.txt' });
  await comeBack(page);
  await row(page, 'added.txt').waitFor();
});

it('says a 50 MB file is too big for the preview without offering a limit the person cannot raise', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Big files');
  await outside(page, id, { write: 'big.log', bytes: 50 * 1024 * 1024 });
  await comeBack(page);
  await row(page, 'big.log').click();
  const text = (await page.getByRole('dialog', { name: 'big.log' }).getByRole('alert').textContent()) ?? '';
  expect(text).toMatch(/^E_FS_TOO_LARGE: /);
  expect(text).toContain('52.4 MB');
  expect(text).toContain('open it with another program');
  expect(text).not.toContain('raise the limit');
  await page.keyboard.press('Escape');
});

it('lists part of a folder with more entries than the panel shows, says so under it, and closing it hides the note', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Crowded');
  await outside(page, id, { crowd: 'crowd', count: 5001 });
  await comeBack(page);
  await row(page, 'crowd').click();
  const note = page.locator('.files-panel').getByTestId('files-partial');
  expect(await note.textContent()).toBe(
    '“crowd” has more than 5000 entries; 5000 of them are shown. Ask the agent to find a file by name.',
  );
  expect(await files(page).locator('[role="treeitem"][aria-level="2"]').count()).toBe(5000);
  expect(await page.locator('.files-panel').getByRole('alert').count()).toBe(0);
  await row(page, 'crowd').click();
  expect(await row(page, 'crowd').getAttribute('aria-expanded')).toBe('false');
  expect(await note.count()).toBe(0);
});

it('refuses a new-file path ending in "/" or naming an existing file, with a code, and creates nothing', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Typos');
  await page.getByRole('button', { name: 'New file' }).click();
  const dialog = page.getByRole('dialog', { name: 'New file' });
  await dialog.getByLabel('Path').fill('notes/');
  await dialog.getByRole('button', { name: 'Create file' }).click();
  await dialog
    .getByRole('alert')
    .filter({ hasText: /^E_PATH_INVALID: .*notes\/notes\.md/ })
    .waitFor();
  await dialog.getByLabel('Path').fill('a.txt');
  await dialog.getByRole('button', { name: 'Create file' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'New file' }).click();
  await dialog.getByLabel('Path').fill('a.txt');
  await dialog.getByLabel('Content').fill('would overwrite');
  await dialog.getByRole('button', { name: 'Create file' }).click();
  await dialog
    .getByRole('alert')
    .filter({ hasText: /^E_FS_EXISTS: / })
    .waitFor();
  await page.keyboard.press('Escape');
  const names = await page.evaluate(async (wid) => {
    const dir = await (
      await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
    ).getDirectoryHandle(wid);
    const out: string[] = [];
    for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) out.push(name);
    return [out, await (await (await dir.getFileHandle('a.txt')).getFile()).text()];
  }, id);
  expect(names).toEqual([['a.txt'], '']);
});

it('offers to choose the folder again when a workspace’s folder vanishes while it is open', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Vanishing');
  await page.evaluate(async (wid) => {
    const base = await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces');
    await base.removeEntry(wid, { recursive: true });
  }, id);
  await comeBack(page);
  await page.getByText('The folder of this workspace cannot be found').waitFor();
});

it('offers “Restore access” when the browser withdraws a granted folder’s permission while the app is open', async () => {
  const { page } = app.browser;
  await page.evaluate(async (name) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
    await dir.getFileHandle('project.md', { create: true });
  }, PICKED_FOLDER);
  await page.getByRole('button', { name: 'New workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByLabel('A folder on this computer').check();
  await dialog.getByRole('button', { name: 'Choose folder and create' }).click();
  await page.getByRole('heading', { level: 1, name: PICKED_FOLDER }).waitFor();
  await row(page, 'project.md').waitFor();

  // Chrome takes a permission back (site settings, or the folder became unreadable): queries say 'prompt' and
  // reading the folder fails with NotAllowedError until requestPermission runs in a click.
  await page.evaluate((picked) => {
    const w = window as unknown as { revoked: boolean };
    w.revoked = true;
    const proto = FileSystemHandle.prototype as unknown as Record<
      string,
      (this: FileSystemHandle, d: unknown) => Promise<string>
    >;
    const query = proto.queryPermission!;
    const request = proto.requestPermission!;
    proto.queryPermission = async function (d) {
      return w.revoked && this.name === picked ? 'prompt' : query.call(this, d);
    };
    proto.requestPermission = async function (d) {
      if (this.name === picked) w.revoked = false;
      return request.call(this, d);
    };
    const dirProto = FileSystemDirectoryHandle.prototype as unknown as {
      entries(this: FileSystemDirectoryHandle): unknown;
    };
    const entries = dirProto.entries;
    dirProto.entries = function () {
      if (w.revoked && this.name === picked) throw new DOMException('The request is not allowed.', 'NotAllowedError');
      return entries.call(this);
    };
  }, PICKED_FOLDER);
  await comeBack(page);
  const restore = page.getByRole('button', { name: 'Restore access' });
  await restore.waitFor();
  expect(await page.locator('.files-panel').getByRole('alert').textContent()).toMatch(/^E_FS_PERMISSION: /);
  await restore.click();
  await restore.waitFor({ state: 'detached' });
  await row(page, 'project.md').waitFor();
  expect(await page.locator('.files-panel').getByRole('alert').count()).toBe(0);
});

it('shows the code with a refused workspace name', async () => {
  const { page } = app.browser;
  await page.getByRole('button', { name: 'New workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByLabel('Private, inside this browser').check();
  await dialog.getByLabel('Name').fill('\u200b\u200b');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog
    .getByRole('alert')
    .filter({ hasText: /^E_WORKSPACE_NAME_INVALID: .*visible character/ })
    .waitFor();
  await page.keyboard.press('Escape');
});
