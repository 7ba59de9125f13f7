// Settings → Agent in the built app: the person unticks the memory module, saves, sends a message, and the
// model's request carries no memory tool (the file tools stay). Screenshot of the tab into e2e/.artifacts/.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  await openApp(served.browser.page, served.server.url);
});
afterAll(async () => {
  await model?.close();
});

const toolNames = (r: RecordedRequest) =>
  ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);

describe('Settings → Agent', () => {
  it('a module disabled there is gone from the next request to the model', async () => {
    model = await startModelServer({ script: [{ text: 'First answer.' }, { text: 'Second answer.' }] });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Agent modules');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-modules' });

    await sendMessage(page, 'Hello with memory.');
    await chatLog(page).getByText('First answer.').waitFor();
    expect(toolNames(model.requests[0]!)).toEqual(expect.arrayContaining(['read', 'memory_get', 'memory_set']));

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Agent' }).click();
    const memory = settings.getByRole('checkbox', { name: /^memory / });
    expect(await memory.isChecked()).toBe(true);
    await memory.uncheck();
    await settings.getByLabel('Cache mode', { exact: true }).selectOption('off');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await settings.getByTestId('agent-status').getByText('Saved.').waitFor();
    await mkdir(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: resolve(ARTIFACTS, 'settings-agent-bottom.png'), animations: 'disabled' });
    await settings.evaluate((dialog) => dialog.scrollTo(0, 0));
    await page.screenshot({ path: resolve(ARTIFACTS, 'settings-agent.png'), animations: 'disabled' });
    // A prompt outside 1–32000 characters is refused with the parser's code, and the saved settings stay.
    await settings.getByLabel('System prompt').fill('   ');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await settings
      .getByTestId('agent-status')
      .getByText(/E_PROMPT_EMPTY/)
      .waitFor();
    await settings.getByRole('button', { name: 'Use the default' }).click();
    await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
    await settings.waitFor({ state: 'detached' });

    await sendMessage(page, 'Hello without memory.');
    await chatLog(page).getByText('Second answer.').waitFor();
    expect(model.failures).toEqual([]);
    expect(model.requests).toHaveLength(2);
    const names = toolNames(model.requests[1]!);
    expect(names).toEqual(expect.arrayContaining(['read', 'write', 'edit']));
    expect(names.filter((n) => n.startsWith('memory_'))).toEqual([]);
  });

  it('a workspace can have its own modules, and go back to the default ones', async () => {
    await model.close();
    model = await startModelServer({ script: [{ text: 'Own settings.' }, { text: 'Default again.' }] });
    const { page } = served.browser;
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-modules' });
    const openAgentTab = async () => {
      await page.getByRole('button', { name: 'Settings' }).click();
      const dialog = page.getByRole('dialog', { name: 'Settings' });
      await dialog.getByRole('tab', { name: 'Agent' }).click();
      await dialog.getByLabel('Applies to').selectOption({ label: 'Only workspace “Agent modules”' });
      return dialog;
    };
    let settings = await openAgentTab();
    await settings.getByText('This workspace uses the default agent settings.', { exact: false }).waitFor();
    // The workspace starts from the default (memory off); ticking it here gives the workspace its own settings.
    const memory = settings.getByRole('checkbox', { name: /^memory / });
    expect(await memory.isChecked()).toBe(false);
    await memory.check();
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await settings.getByTestId('agent-status').getByText('Saved.').waitFor();
    await settings.getByRole('button', { name: 'Use the default agent settings again' }).waitFor();
    await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
    await sendMessage(page, 'With my own settings.');
    await chatLog(page).getByText('Own settings.', { exact: true }).waitFor();
    await waitForTurnEnd(page);
    expect(toolNames(model.requests[0]!)).toEqual(expect.arrayContaining(['memory_get', 'memory_set']));

    settings = await openAgentTab();
    await settings.getByRole('button', { name: 'Use the default agent settings again' }).click();
    await settings.getByText('This workspace uses the default agent settings.', { exact: false }).waitFor();
    await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
    await sendMessage(page, 'Back to the defaults.');
    await chatLog(page).getByText('Default again.', { exact: true }).waitFor();
    await waitForTurnEnd(page);
    expect(toolNames(model.requests[1]!).filter((n) => n.startsWith('memory_'))).toEqual([]);
    expect(model.failures).toEqual([]);
  });
});
