// Page actions in the person's terms, driving the real UI by role and label.
import type { Page } from 'playwright-core';

export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('navigation').waitFor();
}

export async function createPrivateWorkspace(page: Page, name: string): Promise<string> {
  await page.getByRole('button', { name: 'New workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByLabel('Private, inside this browser').check();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1, name }).waitFor();
  return workspaceId(page);
}

export async function workspaceId(page: Page): Promise<string> {
  return (await page.getByTestId('workspace-id').textContent())?.trim() ?? '';
}

export async function createFileThroughUi(page: Page, path: string, content: string): Promise<void> {
  await page.getByRole('button', { name: 'New file' }).click();
  const dialog = page.getByRole('dialog', { name: 'New file' });
  await dialog.getByLabel('Path').fill(path);
  await dialog.getByLabel('Content').fill(content);
  await dialog.getByRole('button', { name: 'Create file' }).click();
  // Creating opens the file's preview, read back through WorkspaceFs.
  await page.getByRole('dialog', { name: path }).waitFor();
}

/** Opens a file from the Files tree, opening its folders on the way; the preview dialog is titled with its path. */
export async function readFileThroughUi(page: Page, path: string): Promise<string> {
  const tree = page.getByRole('tree', { name: 'Files' });
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i++) {
    const folder = tree.locator(`[role="treeitem"][data-path="${segments.slice(0, i).join('/')}"]`);
    if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
  }
  await tree.locator(`[role="treeitem"][data-path="${path}"]`).click();
  const dialog = page.getByRole('dialog', { name: path });
  const text = (await dialog.getByLabel('File preview').textContent()) ?? '';
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });
  return text;
}
