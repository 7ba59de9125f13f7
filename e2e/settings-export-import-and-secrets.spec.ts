import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { approvalMode, configureModel, openModelSettings, setApprovalMode } from './agent-steps';
import { createPrivateWorkspace, launchBrowser, openApp, useServedApp } from './harness';

const app = useServedApp();

it('stores a key by name, exports settings without it, refuses a bad file unchanged, and imports a good one', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
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
  // The picked theme wins over the system's light scheme.
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 21)');

  await settings.getByRole('tab', { name: 'Import / Export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    settings.getByRole('button', { name: 'Export settings' }).click(),
  ]);
  const exported = await readFile((await download.path())!, 'utf8');
  expect(JSON.parse(exported)).toMatchObject({ format: 'i-settings', version: 2, global: { theme: 'dark' } });
  expect(exported).not.toContain('sk-e2e-never-exported');
  expect(exported).not.toContain('OPENAI_API_KEY');

  const input = settings.getByLabel('Import settings');
  await input.setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ format: 'i-settings', version: 1, global: { theme: 'purple' } })),
  });
  const result = settings.getByTestId('import-result');
  await result.filter({ hasText: 'At global.theme' }).waitFor();
  expect(await result.textContent()).toContain('nothing changed');
  expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

  const good = { ...JSON.parse(exported), global: { ...JSON.parse(exported).global, theme: 'light', language: 'zh' } };
  await input.setInputFiles({
    name: 'good.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(good)),
  });
  await page.waitForFunction(
    () => document.documentElement.dataset.theme === 'light' && document.documentElement.lang === 'zh-CN',
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(246, 247, 249)');
  await page.getByRole('dialog', { name: '设置' }).waitFor();

  await page.reload();
  await page.getByRole('button', { name: '新建工作区' }).waitFor();
});

it('carries the model configuration and the approval mode to a new browser profile, never the key', async () => {
  // First profile: a model (key stored by name) and the workspace's approval mode, then Export.
  const first = await launchBrowser();
  let exported: string;
  try {
    const { page } = first;
    await openApp(page, app.server.url);
    await createPrivateWorkspace(page, 'Moving house');
    await configureModel(page, {
      protocol: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'e2e-moved-model',
      keyName: 'E2E_MOVED_KEY',
      key: 'sk-e2e-moved-never-exported',
    });
    await setApprovalMode(page, 'Auto');
    // The control shows the saved mode, so it reads 'auto' once the mode is saved.
    await expect.poll(() => approvalMode(page)).toBe('auto');
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Import / Export' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      settings.getByRole('button', { name: 'Export settings' }).click(),
    ]);
    exported = await readFile((await download.path())!, 'utf8');
  } finally {
    await first.dispose();
  }
  expect(exported).not.toContain('sk-e2e-moved-never-exported');
  expect(JSON.parse(exported)).toMatchObject({
    version: 2,
    agent: {
      global: {
        model: {
          config: {
            protocol: 'openai',
            base_url: 'http://127.0.0.1:9/v1',
            model: 'e2e-moved-model',
            api_key_env: 'E2E_MOVED_KEY',
          },
        },
      },
      workspaces: [{ name: 'Moving house', approval: 'auto' }],
    },
  });

  // A new profile with a workspace of the same name: Import, then the Model tab and the approval mode show them.
  const second = await launchBrowser();
  try {
    const { page } = second;
    await openApp(page, app.server.url);
    await createPrivateWorkspace(page, 'Moving house');
    expect(await approvalMode(page)).toBe('ask');
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Import / Export' }).click();
    await settings
      .getByLabel('Import settings')
      .setInputFiles({ name: 'moved.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
    // ask → auto loosens a protection: the review names it and waits for the person's OK.
    const review = settings.getByRole('region', { name: 'This file would give the agent more room' });
    await review.getByText('Approvals change from “ask” to “auto”').waitFor();
    await review.getByRole('button', { name: 'Apply, including these changes' }).click();
    await settings.getByTestId('import-result').filter({ hasText: 'Moving house' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Moving house' }).waitFor();
    expect(await approvalMode(page)).toBe('auto');
    const dialog = await openModelSettings(page);
    await expect
      .poll(() => dialog.getByRole('textbox', { name: 'Model', exact: true }).inputValue())
      .toBe('e2e-moved-model');
    expect(await dialog.getByLabel('API key name').inputValue()).toBe('E2E_MOVED_KEY');
    expect(await dialog.getByLabel('Base URL').inputValue()).toBe('http://127.0.0.1:9/v1');
  } finally {
    await second.dispose();
  }
});
