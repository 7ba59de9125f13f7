import { expect, it } from 'vitest';
import {
  createFileThroughUi,
  createPrivateWorkspace,
  openApp,
  readFileThroughUi,
  workspaceId,
  useServedApp,
} from './harness';

const app = useServedApp();

it('keeps a private (OPFS) workspace with the same UUID and its file across a reload', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  await expect(page.getByText('No workspaces yet.', { exact: false }).count()).resolves.toBe(1);

  const id = await createPrivateWorkspace(page, 'Notes');
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  await createFileThroughUi(page, 'docs/hello.md', '# Hello\nwritten through WorkspaceFs\n');
  await page.keyboard.press('Escape');

  // The file landed in the workspace's OPFS directory, at workspaces/<uuid>/docs/hello.md.
  const onDisk = await page.evaluate(async (wid) => {
    const root = await navigator.storage.getDirectory();
    const dir = await (
      await (await root.getDirectoryHandle('workspaces')).getDirectoryHandle(wid)
    ).getDirectoryHandle('docs');
    return (await (await dir.getFileHandle('hello.md')).getFile()).text();
  }, id);
  expect(onDisk).toBe('# Hello\nwritten through WorkspaceFs\n');

  await page.reload();
  await page.getByRole('link', { name: /Notes/ }).click();
  expect(await workspaceId(page)).toBe(id);
  await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'docs', exact: true }).click();
  expect(await readFileThroughUi(page, 'docs/hello.md')).toBe('# Hello\nwritten through WorkspaceFs\n');
});

it('lists a file written into the OPFS directory from outside the app, and reads it back', async () => {
  const { page } = app.browser;
  const id = await createPrivateWorkspace(page, 'Imported');
  await page.evaluate(async (wid) => {
    const root = await navigator.storage.getDirectory();
    const dir = await (await root.getDirectoryHandle('workspaces')).getDirectoryHandle(wid);
    const writable = await (await dir.getFileHandle('from-outside.txt', { create: true })).createWritable();
    await writable.write('written by the test, read by the app: 你好');
    await writable.close();
  }, id);
  await page.reload();
  expect(await workspaceId(page)).toBe(id);
  expect(await readFileThroughUi(page, 'from-outside.txt')).toBe('written by the test, read by the app: 你好');
});

it('renames a workspace keeping its UUID, then deletes it together with its files', async () => {
  const { page } = app.browser;
  const id = await workspaceId(page);
  // Rename and Delete wait in the workspace's details, behind the button next to its name.
  await page.getByRole('button', { name: 'Workspace details' }).click();
  await page.getByRole('dialog', { name: 'Workspace details' }).getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename workspace' });
  await rename.getByLabel('Name').fill('Imported (renamed)');
  await rename.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { level: 1, name: 'Imported (renamed)' }).waitFor();
  expect(await workspaceId(page)).toBe(id);

  await page.getByRole('button', { name: 'Workspace details' }).click();
  await page.getByRole('dialog', { name: 'Workspace details' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('link', { name: /Imported/ }).waitFor({ state: 'detached' });
  const exists = await page.evaluate(async (wid) => {
    const base = await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces');
    return base.getDirectoryHandle(wid).then(
      () => true,
      () => false,
    );
  }, id);
  expect(exists).toBe(false);
});
