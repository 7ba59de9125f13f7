// First run in the built app: a fresh browser's empty chat offers "Set up a model"; the three-step setup (Custom
// server → address, model, key, Test connection → Done) saves a model the next turn uses, and a starter prompt chip
// fills the message box with a question about this workspace's own file. A saved config that cannot be read shows
// its code and sentence with "Fix the model settings".
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { chatLog, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer } from './model-server';

const app = useServedApp();
let model: ModelServer | undefined;
afterAll(async () => model?.close());

const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? '');

it('guides a first-time person from "Set up a model" to a tested model and a starter prompt the model receives', async () => {
  const { page } = app.browser;
  model = await startModelServer({
    models: ['scripted-model', 'scripted-large'],
    script: [{ text: 'ok', usage: { input: 9, output: 1 } }, { text: 'It lists the scripts and dependencies.' }],
  });
  await openApp(page, app.server.url);
  await createPrivateWorkspace(page, 'Onboarding');
  await createFileThroughUi(page, 'package.json', '{"name": "demo"}');
  await page.getByRole('dialog', { name: 'package.json' }).getByRole('button', { name: 'Close' }).click();

  // The empty chat invites instead of warning; Esc closes the setup, the button opens it again.
  const setUp = page.getByRole('button', { name: 'Set up a model' });
  await setUp.click();
  const dialog = page.getByRole('dialog', { name: 'Set up a model' });
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await setUp.click();

  // Step 1: focus starts on the first provider; choosing Custom server and pressing Enter moves on.
  expect(await focused(page)).toBe('OpenAI (Chat Completions)');
  await dialog.getByRole('radio', { name: 'Custom server' }).check();
  await dialog.getByRole('radio', { name: 'Custom server' }).press('Enter');

  // Step 2: the CORS note names this app's exact origin; the key is stored by Test connection and never shown again.
  await dialog.getByLabel('Server address').waitFor();
  expect(await dialog.getByText(/must allow this site \(CORS\)/).textContent()).toContain(
    new URL(app.server.url).origin,
  );
  expect(await dialog.getByLabel('Protocol').inputValue()).toBe('openai');
  await dialog.getByLabel('Server address').fill(model.baseUrl('openai'));
  await dialog.getByRole('combobox', { name: 'Model', exact: true }).fill('scripted-model');
  await dialog.getByLabel('API key', { exact: true }).fill('sk-onboard');
  // The default profile meters the budget and compacts: no step 3 without the model's context window.
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog
    .getByTestId('setup-problem')
    .getByText(/^E_CONFIG_BUDGET_WINDOW: Enter the model’s context window/)
    .waitFor();
  // The scripted server lists no models: nothing states the window, so the field says why it is asked for.
  await dialog
    .getByText(/^Required: neither the preset nor the server’s model list states this model’s window/)
    .waitFor();
  await dialog.getByLabel('Context window (tokens)').fill('128000');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await dialog
    .getByTestId('setup-connection-report')
    .getByText(/^Connected in \d+ ms\. The model said: “ok”\.$/)
    .waitFor();
  const turns = () => model!.requests.filter((r) => r.method === 'POST');
  expect(turns()[0]!.headers.authorization).toBe('Bearer sk-onboard');
  expect(await dialog.getByLabel('API key', { exact: true }).inputValue()).toBe('');
  await dialog.getByText('A key named CUSTOM_API_KEY is already stored; leave this empty to keep it.').waitFor();
  // A working server's own model list becomes the Model field's suggestions.
  const listId = await dialog.getByRole('combobox', { name: 'Model', exact: true }).getAttribute('list');
  await expect
    .poll(() =>
      page
        .locator(`datalist[id="${listId}"] option`)
        .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)),
    )
    .toEqual(['scripted-large', 'scripted-model']);

  // Step 3: the summary says the test passed; Done saves (globally, like Settings → Model) and closes.
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByText(/^The connection works \(\d+ ms\)\.$/).waitFor();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await dialog.waitFor({ state: 'detached' });

  // Starter prompts about this workspace; one names its top-level file and goes into the message box.
  const starters = page.getByRole('list', { name: 'Starter prompts' });
  await starters.getByRole('button', { name: 'Explain this project’s structure' }).waitFor();
  await starters.getByRole('button', { name: 'What does package.json do?' }).click();
  const box = page.getByLabel('Message', { exact: true });
  expect(await box.inputValue()).toBe('What does package.json do?');
  await box.press('Enter');
  await chatLog(page).getByText('It lists the scripts and dependencies.').waitFor();
  await waitForTurnEnd(page);
  const turn = turns()[1]!;
  expect(turn.body?.model).toBe('scripted-model');
  expect(turn.headers.authorization).toBe('Bearer sk-onboard');
  expect(JSON.stringify(turn.body?.messages)).toContain('What does package.json do?');
  expect(model.failures).toEqual([]);
  await starters.waitFor({ state: 'detached' });
  expect(await setUp.count()).toBe(0);
});

it('shows a saved config that cannot be read with its code and sentence, and "Fix the model settings" opens the setup', async () => {
  const { page } = app.browser;
  // The stored config edited by hand: a key inside the config file is refused by the config parser.
  await page.evaluate(
    () =>
      new Promise<void>((done, fail) => {
        const open = indexedDB.open('i-harness');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('settings', 'readwrite');
          const store = tx.objectStore('settings');
          const get = store.get('agent:global');
          get.onsuccess = () => {
            const record = get.result as { values: { model?: { config: Record<string, unknown> } } } | undefined;
            if (!record?.values.model) return fail(new Error('no saved model to break'));
            record.values.model.config.api_key = 'sk-inline';
            store.put(record);
          };
          tx.oncomplete = () => {
            open.result.close();
            done();
          };
          tx.onerror = () => fail(tx.error);
        };
      }),
  );
  await page.reload();
  const alert = page.getByTestId('first-run').getByRole('alert');
  await alert.getByText('E_CONFIG_UNKNOWN_KEY').waitFor();
  expect(await alert.textContent()).toMatch(/At api_key: keys are never stored in the config file/);
  await alert.getByRole('button', { name: 'Fix the model settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set up a model' });
  await dialog.getByRole('radio', { name: 'OpenAI (Chat Completions)' }).waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
});
