// Settings → Model → Test connection: the seed 000 §10 smoke request (no tools, 32-token cap) reports latency and
// usage on success and the exact error on failure; the key is stored by name and never shown again.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { fillModelForm, openAdvanced, openModelSettings } from './agent-steps';
import { openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer({
    script: [
      {
        expect: (r) => {
          if (r.body?.tools !== undefined && (r.body.tools as unknown[]).length > 0)
            throw new Error('tools were offered');
          if (r.body?.max_tokens !== 32) throw new Error(`max_tokens ${String(r.body?.max_tokens)}`);
        },
        text: 'ok',
        usage: { input: 14, output: 1 },
      },
      { error: { status: 401, message: 'Incorrect API key provided: sk-wrong.' } },
    ],
  });
});
afterAll(async () => {
  await model?.close();
});

it('reports latency and usage for a working provider, then the exact error for a refused key', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const dialog = await openModelSettings(page);
  await fillModelForm(page, {
    protocol: 'anthropic',
    baseUrl: model.baseUrl('anthropic'),
    keyName: 'SMOKE_KEY',
    key: 'sk-right',
  });
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  const report = dialog.getByTestId('connection-report');
  await report.getByText(/^Connected in \d+ ms\. The model said: “ok”\.$/).waitFor();
  expect(await report.textContent()).toContain('Usage: 14 input, 1 output tokens.');
  await mkdir(resolve(import.meta.dirname, '.artifacts'), { recursive: true });
  await page.screenshot({ path: resolve(import.meta.dirname, '.artifacts', 'settings-model-light.png') });
  expect(model.requests[0]!.headers['x-api-key']).toBe('sk-right');
  expect(model.requests[0]!.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  // The key went to the secrets store under its name; the field is empty and the value is never shown again.
  expect(await dialog.getByLabel('API key', { exact: true }).inputValue()).toBe('');
  await dialog.getByText('A key named SMOKE_KEY is stored.').waitFor();

  await dialog.getByLabel('API key', { exact: true }).fill('sk-wrong');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await report
    .getByText(/^E_PROVIDER_AUTH: The provider refused the key \(401: .*Incorrect API key provided: sk-wrong\./)
    .waitFor();
  expect(await report.getAttribute('role')).toBe('alert');

  // A broken extra_body is refused before any request, naming the field.
  const before = model.requests.length;
  await openAdvanced(dialog);
  await dialog.getByLabel('Extra request fields (JSON)').fill('{"temperature": }');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await dialog
    .getByTestId('model-status')
    .getByText(/^E_EXTRA_BODY_JSON: At extra_body: not valid JSON/)
    .waitFor();
  expect(model.requests.length).toBe(before);
});

it('imports a model config file (seed 000 §4) with the key named by api_key_env, and refuses a bad one by path', async () => {
  const { page } = served.browser;
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const input = dialog.getByLabel('Import a model config file');
  const config = {
    protocol: 'deepseek',
    base_url: model.url,
    model: 'deepseek-chat',
    api_key_env: 'SMOKE_KEY',
    max_tokens: 2048,
    budget: { context_window: 64000 },
  };
  await input.setInputFiles({
    name: 'model.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(config)),
  });
  await dialog
    .getByTestId('model-status')
    .getByText('Imported. The key is read from the secrets entry SMOKE_KEY.')
    .waitFor();
  expect(await dialog.getByLabel('Protocol').inputValue()).toBe('deepseek');
  expect(await dialog.getByRole('textbox', { name: 'Model', exact: true }).inputValue()).toBe('deepseek-chat');
  expect(await dialog.getByLabel('Context window (tokens)').inputValue()).toBe('64000');

  await input.setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ ...config, api_key: 'sk-inline' })),
  });
  await dialog
    .getByTestId('model-status')
    .getByText(/^bad\.json: E_CONFIG_UNKNOWN_KEY: At api_key: keys are never stored in the config file/)
    .waitFor();
  // The good config stays saved: reopening the tab shows it.
  await dialog.getByRole('tab', { name: 'General' }).click();
  await dialog.getByRole('tab', { name: 'Model' }).click();
  await expect
    .poll(() => dialog.getByRole('textbox', { name: 'Model', exact: true }).inputValue())
    .toBe('deepseek-chat');
});
