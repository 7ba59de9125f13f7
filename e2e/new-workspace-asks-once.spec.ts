// The welcome screen's "Create a private workspace" is the choice of where the files live: the dialog it opens does
// not ask it again, and suggests a name instead of requiring one. From the sidebar the dialog still asks.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { openApp, useServedApp } from './harness';

const ARTIFACTS = resolve(import.meta.dirname, '.artifacts', 'issue-33');
const served = useServedApp();

it('creates a private workspace from the welcome card with the suggested name, asking nothing twice', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await page.getByRole('button', { name: /^Create a private workspace/ }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.waitFor();
  expect(await dialog.getByRole('radio').count()).toBe(0);
  await dialog.getByText('Where the files live: Private, inside this browser.').waitFor();
  const name = dialog.getByLabel('Name');
  expect(await name.inputValue()).toBe('Workspace 1');
  expect(await name.getAttribute('required')).toBeNull();
  await mkdir(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: resolve(ARTIFACTS, 'new-private-workspace-from-welcome.png'), animations: 'disabled' });
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1, name: 'Workspace 1' }).waitFor();

  // From the sidebar the dialog asks where the files live; an emptied name still creates, with the suggestion.
  await page.getByRole('button', { name: 'New workspace' }).click();
  const again = page.getByRole('dialog', { name: 'New workspace' });
  await again.getByLabel('Private, inside this browser').check();
  expect(await again.getByLabel('Name').inputValue()).toBe('Workspace 2');
  await again.getByLabel('Name').fill('');
  await again.getByRole('button', { name: 'Create', exact: true }).click();
  await again.waitFor({ state: 'detached' });
  await page.getByRole('heading', { level: 1, name: 'Workspace 2' }).waitFor();
});
