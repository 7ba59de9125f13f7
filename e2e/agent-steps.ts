// Page actions for the agent specs, in the person's terms: configure the model in Settings → Model, talk in the
// chat, answer an approval card.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface ModelForm {
  protocol: 'openai' | 'deepseek' | 'anthropic' | 'responses';
  baseUrl: string;
  model?: string;
  keyName?: string;
  key?: string;
  /** The model's window (tokens): the default profile meters the budget and compacts, so a turn needs one. */
  contextWindow?: string;
}

export async function openModelSettings(page: Page) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'Model' }).click();
  return dialog;
}

/** Settings → Model → Advanced, folded unless one of its settings differs from the usual: opened as a person would. */
export async function openAdvanced(dialog: Locator) {
  const details = dialog.locator('details.model-advanced');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await dialog.getByLabel('Tool calling', { exact: true }).waitFor();
}

export async function fillModelForm(page: Page, form: ModelForm) {
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Preset', { exact: true }).selectOption('custom');
  await dialog.getByLabel('Protocol', { exact: true }).selectOption(form.protocol);
  await dialog.getByLabel('Base URL', { exact: true }).fill(form.baseUrl);
  await dialog.getByRole('textbox', { name: 'Model', exact: true }).fill(form.model ?? 'scripted-model');
  await dialog.getByLabel('API key name', { exact: true }).fill(form.keyName ?? 'TEST_KEY');
  if (form.key) await dialog.getByLabel('API key', { exact: true }).fill(form.key);
  await dialog.getByLabel('Route', { exact: true }).selectOption('direct');
  await dialog.getByLabel('Context window (tokens)', { exact: true }).fill(form.contextWindow ?? '1000000');
  return dialog;
}

export async function configureModel(page: Page, form: ModelForm) {
  const dialog = await openModelSettings(page);
  await fillModelForm(page, form);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await dialog.getByTestId('model-status').getByText('Saved.').waitFor();
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await dialog.waitFor({ state: 'detached' });
}

export async function sendMessage(page: Page, text: string) {
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
  // A send refused in the moment a turn ends (the composer keeps the text and says "Not sent") is sent again, once,
  // as a person would; seen once under CI load right after Settings was closed.
  const refused = page.getByText(/^Not sent:/);
  if (
    await refused.waitFor({ timeout: 250 }).then(
      () => true,
      () => false,
    )
  ) {
    await page.waitForTimeout(300);
    await box.press('Enter');
  }
}

export const chatLog = (page: Page) => page.getByRole('log', { name: 'Chat' });

/** Waits until the turn has fully ended (saved, its interrupted-turn record cleared): text can show earlier. */
export async function waitForTurnEnd(page: Page) {
  await page.locator('[role="log"][aria-busy="false"]').waitFor();
}

/** Settings → Plugins: imports a package and enables it for the open workspace (named `workspace`). */
export async function importAndEnablePlugin(
  page: Page,
  file: { name: string; buffer: Buffer },
  pluginId: string,
  workspace: string,
) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Plugins' }).click();
  await settings
    .getByLabel('Import plugin (.hplugin.zip)')
    .setInputFiles({ name: file.name, mimeType: 'application/zip', buffer: file.buffer });
  await settings.getByTestId('plugin-import-result').waitFor();
  const card = settings.locator(`li.plugin-card[data-plugin-id="${pluginId}"]`);
  await card.getByLabel(`Enabled in ${workspace}`).check();
  // The card is busy until the choice is stored and read back; closing earlier could race the write.
  await settings.locator(`li.plugin-card[data-plugin-id="${pluginId}"]:not([aria-busy="true"])`).waitFor();
  expect(await card.getByLabel(`Enabled in ${workspace}`).isChecked()).toBe(true);
  await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
  await settings.waitFor({ state: 'detached' });
}

/** Settings → Bridge: pairs with a running i-bridge by its address and printed code. */
export async function pairBridgeInSettings(page: Page, bridge: { url: string; code: string }) {
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Bridge' }).click();
  await settings.getByLabel('Bridge address').fill(bridge.url);
  await settings.getByLabel('Pairing code').fill(bridge.code);
  await settings.getByRole('button', { name: 'Pair' }).click();
  await settings.getByTestId('bridge-paired').waitFor();
  await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
  await settings.waitFor({ state: 'detached' });
}

/** The composer's approval mode, a radio group named "Approval" (Ask / Auto / YOLO). */
export async function setApprovalMode(page: Page, mode: 'Ask' | 'Auto' | 'YOLO') {
  const radio = page.getByRole('radiogroup', { name: 'Approval' }).getByRole('radio', { name: mode, exact: true });
  await radio.click();
  await expect.poll(() => radio.getAttribute('aria-checked')).toBe('true');
}

/** The approval mode the composer shows as chosen: 'ask', 'auto' or 'yolo' (the saved mode of the workspace). */
export const approvalMode = (page: Page) =>
  page.getByRole('radiogroup', { name: 'Approval' }).getAttribute('data-mode');
