// Settings → Agent → Tools the agent sees in the built app (issue 17) against the scripted model server: the first
// request describes every tool; after restricting this workspace to the `files` group (the section counts it
// against the limits) the next request carries only the file tools' schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;

beforeAll(async () => openApp(served.browser.page, served.server.url));
afterAll(async () => model?.close());

const toolsOf = (i: number) =>
  ((model!.requests[i]!.body as { tools?: { function: { name: string } }[] }).tools ?? [])
    .map((t) => t.function.name)
    .sort();

describe('tools the agent sees', () => {
  it('restricts the next request to the file tools after Settings → Agent limits the workspace to files', async () => {
    model = await startModelServer({ script: [{ text: 'First answer.' }, { text: 'Second answer.' }] });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Views');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

    await sendMessage(page, 'Hello.');
    await chatLog(page).getByText('First answer.').first().waitFor();
    await waitForTurnEnd(page);
    expect(toolsOf(0)).toEqual(expect.arrayContaining(['glob', 'search', 'read', 'write', 'edit']));

    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('tab', { name: 'Agent' }).click();
    await dialog.getByLabel('Applies to').selectOption({ label: 'Only workspace “Views”' });
    const section = dialog.getByTestId('tool-view');
    await section.getByText('Tools for “Views”').waitFor();
    expect(await section.getByRole('radio', { name: /All tools/ }).isChecked()).toBe(true);
    await section.getByRole('radio', { name: /Only these/ }).check();
    const files = section.getByRole('checkbox', { name: /files/ });
    if (!(await files.isChecked())) await files.check();
    for (const other of ['search', 'memory', 'skills'])
      expect(await section.getByRole('checkbox', { name: new RegExp(`^${other}`) }).isChecked()).toBe(false);
    // read, write, edit, view_image and read_result, counted against the limits before saving.
    await section
      .getByTestId('tool-view-summary')
      .getByText(/^5 of at most 64 tools · .* of at most 4\.2 MB$/)
      .waitFor();
    await section.getByRole('button', { name: 'Save tools' }).click();
    await section.getByTestId('tool-view-status').getByText('Saved.', { exact: false }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await sendMessage(page, 'Again.');
    await chatLog(page).getByText('Second answer.').first().waitFor();
    await waitForTurnEnd(page);
    expect(toolsOf(1)).toEqual(['edit', 'read', 'read_result', 'view_image', 'write']);
    expect(model.failures).toEqual([]);
  });
});
