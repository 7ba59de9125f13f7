// Approval rules in the built app (issue 16) against the scripted model server: "Always allow edit in src/" on a
// card saves a workspace rule; the next edit under src/ runs unasked (its card says which rule decided) while an
// edit elsewhere still asks; the rule is listed in Settings → Agent → Approval rules, where it can be removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;

beforeAll(async () => openApp(served.browser.page, served.server.url));
afterAll(async () => model?.close());

const edit = (path: string, from: string, to: string) => ({
  name: 'edit',
  arguments: { path, old_string: from, new_string: to },
});

describe('approval rules', () => {
  it('makes a rule from a card that allows the next matching edit and still asks for another path', async () => {
    model = await startModelServer({
      script: [
        { toolCalls: [edit('src/a.txt', 'one', 'two')] },
        { text: 'Edited a.' },
        { toolCalls: [edit('src/b.txt', 'one', 'two'), edit('notes.txt', 'one', 'two')] },
        { text: 'Edited both.' },
      ],
    });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Rules');
    for (const path of ['src/a.txt', 'src/b.txt', 'notes.txt']) {
      await createFileThroughUi(page, path, 'one\n');
      await page.keyboard.press('Escape');
    }
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

    await sendMessage(page, 'Edit a.');
    const first = page.getByRole('group', { name: 'Allow edit?' });
    await first.getByRole('button', { name: 'Always allow edit in src/' }).click();
    await chatLog(page).getByText('Edited a.').first().waitFor();
    await waitForTurnEnd(page);

    await sendMessage(page, 'Edit b and the notes.');
    // Only the edit outside src/ asks.
    const second = page.getByRole('group', { name: 'Allow edit?' });
    await second.waitFor();
    expect(await second.getAttribute('data-path')).toBe('notes.txt');
    expect(await page.getByRole('group', { name: 'Allow edit?' }).count()).toBe(1);
    await second.getByRole('button', { name: 'Allow', exact: true }).click();
    await chatLog(page).getByText('Edited both.').first().waitFor();
    await waitForTurnEnd(page);

    // Both edits ran; the one under src/ says which rule allowed it.
    const ruled = chatLog(page).locator('[data-tool="edit"]').filter({ hasText: 'src/b.txt' });
    expect(await ruled.getAttribute('data-state')).toBe('done');
    await ruled.locator('summary').click();
    expect(await ruled.getByTestId('tool-rule').textContent()).toBe(
      'Decided by the rule “allow edit on src/**” (this workspace)',
    );
    expect(
      await chatLog(page)
        .locator('[data-tool="edit"]')
        .filter({ hasText: 'notes.txt' })
        .getByTestId('tool-rule')
        .count(),
    ).toBe(0);
    const results = (model.requests[3]!.body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(results.some((r) => r.includes('E_TOOL'))).toBe(false);

    // Settings → Agent lists the rule for this workspace; removing it and saving leaves none.
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('tab', { name: 'Agent' }).click();
    await dialog.getByLabel('Applies to').selectOption({ label: 'Only workspace “Rules”' });
    const rules = dialog.getByTestId('approval-rules');
    const row = rules.getByRole('listitem', { name: 'Rule 1' });
    await row.waitFor();
    expect(await row.getByRole('combobox', { name: 'Decision' }).inputValue()).toBe('allow');
    expect(await row.getByRole('combobox', { name: 'Tool' }).inputValue()).toBe('edit');
    expect(await row.getByRole('textbox', { name: 'Path (optional)' }).inputValue()).toBe('src/**');
    // A bad glob is named before anything is saved.
    await row.getByRole('textbox', { name: 'Path (optional)' }).fill('../**');
    await rules.getByRole('button', { name: 'Save rules' }).click();
    expect(await rules.getByTestId('rules-status').textContent()).toContain('Rule 1.path');
    await rules.getByRole('button', { name: 'Remove rule 1' }).click();
    await rules.getByRole('button', { name: 'Save rules' }).click();
    await rules.getByTestId('rules-status').getByText('Rules saved.', { exact: false }).waitFor();
    expect(await rules.getByRole('listitem').count()).toBe(0);
    expect(model.failures).toEqual([]);
  });
});
