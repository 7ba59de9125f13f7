import { expect, it } from 'vitest';
import {
  folderPickerSubstitute,
  openApp,
  PICKED_FOLDER,
  readFileThroughUi,
  workspaceId,
  useServedApp,
} from './harness';

const app = useServedApp({ initScripts: [folderPickerSubstitute] });

it('grants a folder through the picker, keeps the handle, and restores access with one click after a reload', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  // The "person's folder" already has a project file in it.
  await page.evaluate(async (name) => {
    const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(name, { create: true });
    const w = await (await dir.getFileHandle('README.md', { create: true })).createWritable();
    await w.write('project readme');
    await w.close();
  }, PICKED_FOLDER);

  await page.getByRole('button', { name: 'Open a folder' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByLabel('Read only').check();
  await dialog.getByRole('button', { name: 'Choose folder and create' }).click();
  // An empty name takes the folder's name.
  await page.getByRole('heading', { level: 1, name: PICKED_FOLDER }).waitFor();
  const id = await workspaceId(page);
  // Said where it matters, on the Files panel (the workspace details, behind their button, say it too).
  expect(await page.getByRole('region', { name: 'Files' }).getByText('Read only').isVisible()).toBe(true);
  expect(await page.getByRole('button', { name: 'New file' }).count()).toBe(0);
  expect(await readFileThroughUi(page, 'README.md')).toBe('project readme');

  await page.reload();
  await page.getByRole('heading', { level: 1, name: PICKED_FOLDER }).waitFor();
  expect(await workspaceId(page)).toBe(id);
  const restore = page.getByRole('button', { name: 'Restore access' });
  await restore.waitFor();
  expect(await page.getByRole('tree', { name: 'Files' }).count()).toBe(0);
  await restore.click();
  await restore.waitFor({ state: 'detached' });
  expect(await readFileThroughUi(page, 'README.md')).toBe('project readme');
});

it('refuses a second workspace with the same name and says why', async () => {
  const { page } = app.browser;
  await page.getByRole('button', { name: 'New workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByLabel('Private, inside this browser').check();
  await dialog.getByLabel('Name').fill(PICKED_FOLDER.toUpperCase());
  await dialog.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('alert').filter({ hasText: 'already exists' }).waitFor();
  expect(
    await page
      .getByRole('link')
      .filter({ hasText: new RegExp(PICKED_FOLDER, 'i') })
      .count(),
  ).toBe(1);
});
