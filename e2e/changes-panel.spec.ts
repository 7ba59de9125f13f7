// The Changes panel in the built app (issue 16) against the scripted model server: a turn edits two files (one of
// them in two places) and creates a third; the header's +/− opens the Changes tab, which lists the three under
// "Turn 1"; "Keep" folds a file away, also after a reload; reverting one hunk of the two-hunk edit leaves the other;
// a file the person changed after the turn is a conflict on "Revert file": "Keep my edits" leaves their version,
// "Revert anyway" reverts it and "Redo" brings their version back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, setApprovalMode, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, readFileThroughUi, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;

beforeAll(async () => openApp(served.browser.page, served.server.url));
afterAll(async () => model?.close());

const edit = (path: string, from: string, to: string) => ({
  name: 'edit',
  arguments: { path, old_string: from, new_string: to },
});
const write = (path: string, content: string) => ({ name: 'write', arguments: { path, content } });
const A = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n';

/** The person (or another program) changes a file of the private workspace: straight into its OPFS folder. */
async function writeBehindTheAgent(page: Page, workspace: string, path: string, content: string) {
  await page.evaluate(
    async ([id, name, text]) => {
      const dir = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(id!);
      const w = await (await dir.getFileHandle(name!)).createWritable();
      await w.write(text!);
      await w.close();
    },
    [workspace, path, content],
  );
}

const tab = (page: Page, name: string) => page.getByRole('tablist').getByRole('tab', { name, exact: true });
const changes = (page: Page) => page.getByRole('region', { name: 'Changes in this session' });

describe('changes panel', () => {
  it('lists a turn’s files, reverts one hunk of two, and asks before reverting over the person’s edit', async () => {
    model = await startModelServer({
      script: [
        {
          toolCalls: [
            edit('a.txt', 'two', 'TWO'),
            edit('a.txt', 'nine', 'NINE'),
            edit('b.txt', 'beta', 'BETA'),
            write('c.txt', 'new\n'),
          ],
        },
        { text: 'All three done.' },
      ],
    });
    const { page } = served.browser;
    const workspace = await createPrivateWorkspace(page, 'Changes');
    await createFileThroughUi(page, 'a.txt', A);
    await page.keyboard.press('Escape');
    await createFileThroughUi(page, 'b.txt', 'alpha\nbeta\n');
    await page.keyboard.press('Escape');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await setApprovalMode(page, 'Auto');
    await sendMessage(page, 'Change three files');
    await chatLog(page).getByText('All three done.').waitFor();
    await waitForTurnEnd(page);

    // The header's total opens the Changes tab.
    const total = page.getByRole('button', { name: '3 files changed, 4 lines added, 3 removed. Show the changes.' });
    expect(await total.textContent()).toBe('+4−3');
    await total.click();
    expect(await tab(page, 'Changes').getAttribute('aria-selected')).toBe('true');
    const turn = changes(page).getByRole('region', { name: 'Turn 1' });
    expect(await turn.getByRole('heading').textContent()).toBe('Turn 1 · 3 files');
    expect(await turn.locator('.changes-path').allTextContents()).toEqual(['a.txt', 'b.txt', 'c.txt']);
    await turn.getByRole('listitem').filter({ hasText: 'c.txt' }).getByText('new', { exact: true }).waitFor();

    // Keep folds a file away, and it stays kept after a reload.
    await turn.getByRole('button', { name: 'Review c.txt' }).click();
    await page.getByRole('dialog', { name: 'Review c.txt' }).getByRole('button', { name: 'Keep', exact: true }).click();
    await turn.getByText('1 kept').waitFor();
    expect(await turn.getByRole('button', { name: 'Review c.txt' }).isVisible()).toBe(false);
    await page.reload();
    await chatLog(page).getByText('All three done.').waitFor();
    await tab(page, 'Changes').click();
    await turn.getByText('1 kept').waitFor();

    // One hunk of a.txt's two goes back; the other stays.
    await turn.getByRole('button', { name: 'Review a.txt' }).click();
    const review = page.getByRole('dialog', { name: 'Review a.txt' });
    await review.getByRole('button', { name: 'Revert: change 2 of 2' }).waitFor();
    await review.getByRole('button', { name: 'Revert: change 1 of 2' }).click();
    await review.getByRole('button', { name: 'Revert: change 1 of 1' }).waitFor();
    await review.getByRole('button', { name: 'Close' }).click();
    await tab(page, 'Files').click();
    expect(await readFileThroughUi(page, 'a.txt')).toBe(A.replace('nine', 'NINE'));

    // The person changes b.txt after the turn: "Revert file" asks, and "Keep my edits" leaves their version.
    const mine = 'alpha\nBETA and my own line\n';
    await writeBehindTheAgent(page, workspace, 'b.txt', mine);
    await tab(page, 'Changes').click();
    await turn.getByRole('button', { name: 'Review b.txt' }).click();
    await page.getByRole('dialog', { name: 'Review b.txt' }).getByRole('button', { name: 'Revert file' }).click();
    const conflict = page.getByRole('dialog', { name: 'You changed b.txt since the agent did' });
    await conflict.locator('.cm-mergeView').waitFor();
    await conflict.getByRole('button', { name: 'Keep my edits' }).click();
    await conflict.waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(0);
    await tab(page, 'Files').click();
    expect(await readFileThroughUi(page, 'b.txt')).toBe(mine);

    // "Revert anyway" puts back the state before the session; the notice's Redo brings the person's version back.
    await tab(page, 'Changes').click();
    await turn.getByRole('button', { name: 'Review b.txt' }).click();
    await page.getByRole('dialog', { name: 'Review b.txt' }).getByRole('button', { name: 'Revert file' }).click();
    await conflict.getByRole('button', { name: 'Revert anyway' }).click();
    const notice = changes(page).getByRole('status');
    expect(await notice.locator('span').first().textContent()).toBe('Reverted b.txt.');
    await changes(page).getByRole('region', { name: 'Reverts' }).getByText('Reverted b.txt · turn 1').waitFor();
    await tab(page, 'Files').click();
    expect(await readFileThroughUi(page, 'b.txt')).toBe('alpha\nbeta\n');
    await tab(page, 'Changes').click();
    await notice.getByRole('button', { name: 'Redo' }).click();
    await changes(page).getByText('Reverted b.txt · turn 1').waitFor({ state: 'detached' });
    await tab(page, 'Files').click();
    expect(await readFileThroughUi(page, 'b.txt')).toBe(mine);
    expect(model.failures).toEqual([]);
  });
});
