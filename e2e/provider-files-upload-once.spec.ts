// Provider Files in the built app against the scripted model server's Anthropic Files endpoints: Settings → Model →
// Images set to "Upload once" with provider operations allowed; a pasted image is uploaded once and both requests
// of the turn reference its file_id; Settings → Model → Files lists it as uploaded here among the account's other
// files, reading the vendor's list page by page (up to 8 pages, then it says more exist), and deleting it asks first.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatLog, openAdvanced, openModelSettings, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer } from './model-server';

const served = useServedApp();
let model: ModelServer;

// A 2x1 PNG (red, blue), 8-bit RGB.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==';

beforeAll(async () => {
  // One file per list page, so the list needs its pages (Anthropic's limit + after_id).
  model = await startModelServer({
    files: { maxPageSize: 1 },
    script: [{ toolCalls: [{ name: 'read', arguments: { path: 'missing.txt' } }] }, { text: 'Two pixels.' }],
  });
});
afterAll(async () => {
  await model?.close();
});

const uploads = () => model.requests.filter((r) => r.method === 'POST' && r.path === '/v1/files');

it('uploads a pasted image once, references it by file_id, lists it and asks before deleting it', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Files');
  const dialog = await openModelSettings(page);
  // The model form's fields (as agent-steps' fillModelForm; its window label now also names a field of the
  // in-browser model section, so the model form's is the first).
  await dialog.getByLabel('Preset').selectOption('custom');
  await dialog.getByLabel('Protocol').selectOption('anthropic');
  await dialog.getByLabel('Base URL').fill(model.baseUrl('anthropic'));
  await dialog.getByRole('textbox', { name: 'Model', exact: true }).fill('scripted-model');
  await dialog.getByLabel('API key name').fill('TEST_KEY');
  await dialog.getByLabel('API key', { exact: true }).fill('sk-e2e');
  await dialog.getByLabel('Route').selectOption('direct');
  await dialog.getByLabel('Context window (tokens)').first().fill('1000000');
  // One switch alone says what is missing.
  await openAdvanced(dialog);
  await dialog.getByLabel('Images', { exact: true }).selectOption('files');
  await dialog.getByRole('note').getByText('Upload once needs “Allow provider operations” too').waitFor();
  await dialog.getByLabel('Allow provider operations').check();
  expect(await dialog.getByRole('note').count()).toBe(0);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.getByTestId('model-status').getByText('Saved.').waitFor();
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await dialog.waitFor({ state: 'detached' });

  await page.getByLabel('Message', { exact: true }).evaluate((el, b64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'shot.png', { type: 'image/png' }));
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, PNG_BASE64);
  await page.getByRole('list', { name: 'Attached images' }).getByRole('img', { name: 'Attached image 1' }).waitFor();
  await sendMessage(page, 'What is in this picture?');
  await chatLog(page).getByText('Two pixels.').waitFor();
  await waitForTurnEnd(page);

  expect(model.failures).toEqual([]);
  expect(uploads()).toHaveLength(1);
  const id = model.files!.list()[0]!.id;
  const turns = model.requests.filter((r) => r.protocol === 'anthropic');
  expect(turns).toHaveLength(2);
  for (const r of turns) {
    expect(r.rawBody).toContain(`{"type":"image","source":{"type":"file","file_id":"${id}"}}`);
    expect(r.rawBody).not.toContain(PNG_BASE64.slice(0, 40));
    expect(r.headers['anthropic-beta']).toBe('files-api-2025-04-14');
  }

  // Eight files of the account this app did not upload: nine in all, one more than 8 pages show.
  for (let i = 0; i < 8; i++) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([i])]), `other-${i}.bin`);
    await fetch(`${model.baseUrl('anthropic')}/v1/files`, {
      method: 'POST',
      body: form,
      headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': 'files-api-2025-04-14' },
    });
  }
  const settings = await openModelSettings(page);
  await settings.getByRole('button', { name: 'Show files' }).click();
  const list = settings.getByRole('list', { name: 'Files at the provider' });
  const row = list.getByRole('listitem').filter({ hasText: id });
  await row.getByText('Uploaded here').waitFor();
  expect(await list.getByRole('listitem').count()).toBe(8);
  expect(await list.getByText('Uploaded here').count()).toBe(1);
  await settings.getByText('The provider holds more files than these 8: the list stops after 8 pages.').waitFor();
  await row.getByText(`${Buffer.from(PNG_BASE64, 'base64').length} B`, { exact: true }).waitFor();
  await row.getByRole('button', { name: `Delete ${id}` }).click();
  const ask = settings.getByRole('alertdialog', { name: 'Delete file' });
  await ask.getByText(`Delete ${id} at the provider? This cannot be undone.`).waitFor();
  expect(model.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await settings.getByRole('alert').getByText('E_PROVIDER_DELETE_DECLINED').waitFor();
  expect(model.files!.list()).toHaveLength(9);
  await row.getByRole('button', { name: `Delete ${id}` }).click();
  await settings.getByRole('alertdialog', { name: 'Delete file' }).getByRole('button', { name: 'Delete file' }).click();
  await settings.getByRole('status').getByText(`Deleted ${id}.`).waitFor();
  expect(model.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
  expect(model.files!.list()).toHaveLength(8);
  expect(await list.getByRole('listitem').count()).toBe(7);
});
