// "Rewind to here" in the built app (issue 16) against the scripted model server: two turns edit files; rewinding
// the conversation and the files to the second prompt puts the files back, drops the second turn and returns its
// prompt to the box; after sending it again, "Files only" puts the files back and keeps the conversation. Each rewind
// shows as an event line in the conversation. And the approval card's review: the person edits the proposed content in
// the merge view before allowing, and the file holds their version (the model is told).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, setApprovalMode, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, readFileThroughUi, useServedApp } from './harness';

const served = useServedApp();
const models: ModelServer[] = [];

beforeAll(async () => openApp(served.browser.page, served.server.url));
afterAll(async () => Promise.all(models.map((m) => m.close())));

const edit = (path: string, from: string, to: string) => ({
  name: 'edit',
  arguments: { path, old_string: from, new_string: to },
});
const write = (path: string, content: string) => ({ name: 'write', arguments: { path, content } });
const secondTurn = [{ toolCalls: [edit('a.txt', 'one', 'two'), write('b.txt', 'new\n')] }, { text: 'Second done.' }];

const treeItem = (page: Page, path: string) =>
  page.getByRole('tree', { name: 'Files' }).locator(`[role="treeitem"][data-path="${path}"]`);

/** The person's own change to a workspace file, made outside the agent (OPFS, as another program would). */
async function writeByHand(page: Page, workspaceId: string, path: string, text: string) {
  await page.evaluate(
    async ({ workspaceId, path, text }) => {
      const dir = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(workspaceId);
      const w = await (await dir.getFileHandle(path)).createWritable();
      await w.write(text);
      await w.close();
    },
    { workspaceId, path, text },
  );
}

async function rewindFrom(page: Page, prompt: string, choice: string, conflict?: string) {
  const bubble = chatLog(page).locator('.msg-user').filter({ hasText: prompt });
  await bubble.hover();
  await bubble.getByRole('button', { name: 'Rewind to here' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rewind to here' });
  // The dialog names the files it would put back before anything runs.
  await dialog.getByTestId('rewind-files').getByText('2 files changed by this turn and later: a.txt, b.txt').waitFor();
  await dialog.getByLabel(choice).check();
  await dialog.getByRole('button', { name: 'Rewind', exact: true }).click();
  if (conflict) {
    // Nothing is rewound until the person chooses to overwrite their edit.
    expect(await dialog.getByRole('alert').textContent()).toContain(
      `These files hold your edits, made after the agent left them: ${conflict}. Nothing was rewound.`,
    );
    await dialog.getByRole('button', { name: 'Rewind anyway' }).click();
  }
  await dialog.waitFor({ state: 'detached' });
}

describe('rewind to here', () => {
  it('puts the files and the conversation back to before a prompt, or only the files', async () => {
    const model = await startModelServer({
      script: [{ toolCalls: [edit('a.txt', 'zero', 'one')] }, { text: 'First done.' }, ...secondTurn, ...secondTurn],
    });
    models.push(model);
    const { page } = served.browser;
    const id = await createPrivateWorkspace(page, 'Rewind');
    await createFileThroughUi(page, 'a.txt', 'zero\n');
    await page.keyboard.press('Escape');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await setApprovalMode(page, 'Auto');

    await sendMessage(page, 'First change');
    await chatLog(page).getByText('First done.').waitFor();
    await waitForTurnEnd(page);
    await sendMessage(page, 'Second change');
    await chatLog(page).getByText('Second done.').waitFor();
    await waitForTurnEnd(page);
    expect(await readFileThroughUi(page, 'a.txt')).toBe('two\n');
    expect(await readFileThroughUi(page, 'b.txt')).toBe('new\n');

    // The person changes b.txt after the agent: the rewind stops and names it. Anyway: the second turn is gone, a.txt
    // is as the first turn left it, b.txt no longer exists, and the second prompt is back in the box.
    await writeByHand(page, id, 'b.txt', 'mine\n');
    await rewindFrom(page, 'Second change', 'Conversation and files', 'b.txt');
    expect(await chatLog(page).getByText('Second done.').count()).toBe(0);
    expect(await chatLog(page).locator('.msg-user').filter({ hasText: 'Second change' }).count()).toBe(0);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('Second change');
    const event = chatLog(page).getByTestId('undo-event').first();
    expect(await event.textContent()).toContain('Rewound to “Second change” — 2 files and the conversation');
    await treeItem(page, 'b.txt').waitFor({ state: 'detached' });
    expect(await readFileThroughUi(page, 'a.txt')).toBe('one\n');

    // Sent again from the box; then "Files only" keeps the conversation as it is.
    await page.getByLabel('Message', { exact: true }).press('Enter');
    await chatLog(page).getByText('Second done.').waitFor();
    await waitForTurnEnd(page);
    expect(await readFileThroughUi(page, 'a.txt')).toBe('two\n');
    await rewindFrom(page, 'Second change', 'Files only');
    await treeItem(page, 'b.txt').waitFor({ state: 'detached' });
    expect(await readFileThroughUi(page, 'a.txt')).toBe('one\n');
    expect(await chatLog(page).getByText('Second done.').count()).toBe(1);
    expect(await page.getByLabel('Message', { exact: true }).inputValue()).toBe('');
    const filesOnly = chatLog(page).getByTestId('undo-event').filter({ hasText: 'Rewound the files' });
    expect(await filesOnly.textContent()).toContain('Rewound the files to before “Second change” — 2 files');

    // Redo puts back what the agent left; the line says it was redone and a redo line follows it.
    await filesOnly.getByRole('button', { name: 'Redo' }).click();
    await filesOnly.getByText('· redone').waitFor();
    await chatLog(page)
      .locator('[data-testid="undo-event"][data-kind="redo"]')
      .getByText('Put back the agent’s version of 2 files (redo)')
      .waitFor();
    expect(await readFileThroughUi(page, 'b.txt')).toBe('new\n');
    expect(await readFileThroughUi(page, 'a.txt')).toBe('two\n');
    // The lines are kept with the session: after a reload they are still where they were.
    await page.reload();
    await chatLog(page).getByText('Second done.').waitFor();
    await chatLog(page).locator('[data-testid="undo-event"][data-kind="rewind"]').nth(1).waitFor();
    expect(await chatLog(page).getByTestId('undo-event').count()).toBe(3);
    expect(model.failures).toEqual([]);
  });

  it('lets the person edit the proposed content in the merge view before allowing, and writes their version', async () => {
    const model = await startModelServer({
      script: [{ toolCalls: [edit('notes.txt', 'colour: red', 'colour: blue')] }, { text: 'Edited the notes.' }],
    });
    models.push(model);
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Review');
    await createFileThroughUi(page, 'notes.txt', 'colour: red\nsize: large\n');
    await page.keyboard.press('Escape');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

    await sendMessage(page, 'Make it blue.');
    const card = page.getByRole('group', { name: 'Allow edit?' });
    await card.waitFor();
    await card.getByRole('button', { name: 'Edit before allowing' }).click();
    // The proposed side of the merge view is editable; the person adds a line to the agent's version.
    const proposed = card
      .getByRole('group', { name: 'Proposed content of notes.txt' })
      .locator('.cm-merge-b .cm-content');
    await proposed.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('shape: round\n');
    await card.getByText('You changed the proposal').waitFor();
    await card.getByRole('button', { name: 'Allow my version' }).click();
    await chatLog(page).getByText('Edited the notes.').waitFor();
    await waitForTurnEnd(page);

    expect(await readFileThroughUi(page, 'notes.txt')).toBe('colour: blue\nsize: large\nshape: round\n');
    // The tool card keeps the diff of what was written (the person's version), not of the agent's proposal.
    const tool = chatLog(page).locator('[data-tool="edit"]');
    await tool.locator('summary').click();
    expect(await tool.getByLabel('Changes').textContent()).toContain('+shape: round');
    const told = (model.requests[1]!.body as { messages: { role: string; content: string }[] }).messages
      .filter((m) => m.role === 'tool')
      .map((m) => m.content);
    expect(told[0]).toContain('The person changed the content before allowing it, so notes.txt holds their version');
    expect(told[0]).toContain('+shape: round');
    expect(model.failures).toEqual([]);
  });
});
