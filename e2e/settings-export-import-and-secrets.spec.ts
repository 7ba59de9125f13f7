import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrivateWorkspace, launchBrowser, openApp, serveBuild, type AppBrowser, type ServedBuild } from './harness';

let server: ServedBuild;
let browser: AppBrowser;

beforeAll(async () => {
  server = await serveBuild();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.dispose();
  await server?.close();
});

it('stores a key by name, exports settings without it, refuses a bad file unchanged, and imports a good one', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await createPrivateWorkspace(page, 'Settings check');
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });

  await settings.getByRole('tab', { name: 'Keys' }).click();
  await settings.getByLabel('Name').fill('OPENAI_API_KEY');
  await settings.getByLabel('Value').fill('sk-e2e-never-exported');
  await settings.getByRole('button', { name: 'Save key' }).click();
  await settings.getByRole('list', { name: 'Keys' }).getByText('OPENAI_API_KEY').waitFor();

  await settings.getByRole('tab', { name: 'General' }).click();
  await settings.getByLabel('Appearance').selectOption('dark');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');

  await settings.getByRole('tab', { name: 'Import / Export' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), settings.getByRole('button', { name: 'Export settings' }).click()]);
  const exported = await readFile((await download.path())!, 'utf8');
  expect(JSON.parse(exported)).toMatchObject({ format: 'i-settings', version: 1, global: { theme: 'dark' } });
  expect(exported).not.toContain('sk-e2e-never-exported');
  expect(exported).not.toContain('OPENAI_API_KEY');

  const input = settings.getByLabel('Import settings');
  await input.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 'i-settings', version: 1, global: { theme: 'purple' } })) });
  const result = settings.getByTestId('import-result');
  await result.filter({ hasText: 'At global.theme' }).waitFor();
  expect(await result.textContent()).toContain('nothing changed');
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

  const good = { ...JSON.parse(exported), global: { ...JSON.parse(exported).global, theme: 'light', language: 'zh' } };
  await input.setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)) });
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'light' && document.documentElement.lang === 'zh-CN');
  await page.getByRole('dialog', { name: '设置' }).waitFor();

  await page.reload();
  await page.getByRole('button', { name: '新建工作区' }).waitFor();
});
