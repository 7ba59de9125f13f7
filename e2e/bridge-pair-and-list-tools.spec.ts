// Settings → Bridge end to end: a real i-bridge (node bin/i-bridge.js) started with --allow-origin set to the
// served app's origin, a temporary --root and the example manifest; pair in Settings with the printed code and
// see its status and tools. A bridge started without this origin gets the unreachable explanation.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startBridgeProcess, type BridgeProcess } from './bridge-process';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
const served = useServedApp();
const bridges: BridgeProcess[] = [];
const startBridge = async (allowOrigins: string[]) => {
  const bridge = await startBridgeProcess(allowOrigins);
  bridges.push(bridge);
  return bridge;
};

beforeAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => {
  for (const bridge of bridges) await bridge.stop();
});

it('pairs with a real i-bridge using the printed code and lists its status and tools; explains a bridge that does not allow this origin', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Bridge check');
  const origin = new URL(served.server.url).origin;

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Bridge' }).click();
  await settings.getByText(`--allow-origin ${origin}`).first().waitFor();

  // Not started with this origin: the browser blocks the answer; the message names --allow-origin and LNA.
  const foreign = await startBridge(['https://elsewhere.example']);
  await settings.getByLabel('Bridge address').fill(foreign.url);
  await settings.getByLabel('Pairing code').fill(foreign.code);
  await settings.getByRole('button', { name: 'Pair' }).click();
  const pairError = settings.getByTestId('bridge-pair-error');
  await pairError
    .filter({ hasText: 'E_BRIDGE_UNREACHABLE' })
    .or(pairError.filter({ hasText: 'did not answer' }))
    .waitFor();
  expect(await pairError.textContent()).toContain(`--allow-origin ${origin}`);
  expect(await pairError.textContent()).toContain('Local Network Access');

  const bridge = await startBridge([origin]);
  await settings.getByLabel('Bridge address').fill(bridge.url);
  await settings.getByLabel('Pairing code').fill('AAAA-AAAA');
  await settings.getByRole('button', { name: 'Pair' }).click();
  await pairError.filter({ hasText: /code/i }).waitFor();
  await settings.getByLabel('Pairing code').fill(bridge.code);
  await settings.getByRole('button', { name: 'Pair' }).click();
  await settings.getByTestId('bridge-paired').waitFor();
  expect(await settings.getByTestId('bridge-paired').textContent()).toContain(bridge.url);
  const tools = settings.getByRole('list', { name: 'Tools offered' });
  for (const name of ['echo', 'workspace_info', 'word_count']) await tools.getByText(name, { exact: true }).waitFor();
  expect(await settings.getByLabel('Tool calls run in').inputValue()).toBe(bridge.root);
  expect(await settings.textContent()).toContain('before_turn');
  await page.screenshot({ path: resolve(ARTIFACTS, 'bridge-settings.png') });

  // The token is never listed: it lives under an internal credentials entry that no model config can name.
  await settings.getByRole('tab', { name: 'Keys' }).click();
  await settings.getByRole('tabpanel').waitFor();
  const keysText = (await settings.getByRole('tabpanel').textContent()) ?? '';
  expect(keysText).not.toMatch(/bridge/i);
});
