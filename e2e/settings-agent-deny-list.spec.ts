// Settings → Agent → Tools that never run, in the built app (issue 20, app parity with approval.json deny_tools):
// the person lists `write` and saves; the model's write call is then refused in the chat without an approval card,
// and the model receives E_TOOL_DENIED naming deny_tools. Nothing is written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;

beforeAll(async () => openApp(served.browser.page, served.server.url));
afterAll(async () => model?.close());

describe('Settings → Agent deny list', () => {
  it('a tool listed there is refused in the chat without asking', async () => {
    model = await startModelServer({
      script: [
        { toolCalls: [{ name: 'write', arguments: { path: 'denied.txt', content: 'no' } }] },
        { text: 'The write was refused.' },
      ],
    });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Deny list');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-deny' });

    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('tab', { name: 'Agent' }).click();
    await settings.getByLabel('Tools that never run').fill('write, web_fetch');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await settings.getByTestId('agent-status').getByText('Saved.').waitFor();
    await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
    await settings.waitFor({ state: 'detached' });

    await sendMessage(page, 'Write a file.');
    await chatLog(page).getByText('The write was refused.').waitFor();
    await waitForTurnEnd(page);
    expect(await page.getByRole('group', { name: 'Allow write?' }).count()).toBe(0);
    expect(await chatLog(page).locator('[data-tool="write"]').getAttribute('data-state')).not.toBe('done');
    const tool = (model.requests[1]!.body as { messages: { role: string; content: string }[] }).messages.find(
      (m) => m.role === 'tool',
    );
    expect(tool?.content).toContain('E_TOOL_DENIED');
    expect(tool?.content).toContain('deny_tools');
    expect(model.failures).toEqual([]);
  });
});
