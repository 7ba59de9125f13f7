// Closing the page while a tool batch waits for approval: after reopening, the last complete checkpoint loads
// (prompt, the read and its result), the file is untouched, the chat says which calls ran and which did not, and
// the session goes on normally.
import { resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, waitForTurnEnd, configureModel, sendMessage } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, readFileThroughUi, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer({
    script: [
      { text: 'Reading first.', toolCalls: [{ name: 'read', arguments: { path: 'plan.md' } }] },
      {
        toolCalls: [
          { id: 'call_edit', name: 'edit', arguments: { path: 'plan.md', old_string: 'draft', new_string: 'final' } },
          { id: 'call_write', name: 'write', arguments: { path: 'notes.md', content: 'x' } },
        ],
      },
      {
        expect: (r) => {
          // The reopened session continues from the checkpoint: prompt, read call and result, then the new prompt.
          const text = r.rawBody;
          if (
            !text.includes('Reading first.') ||
            !text.includes('Status: draft') ||
            !text.includes('Are you still there?')
          )
            throw new Error('history lost');
        },
        text: 'Yes, still here.',
      },
    ],
  });
});
afterAll(async () => {
  await model?.close();
});

it('loads the last checkpoint after the page closed during an approval, says what ran, and continues', async () => {
  let page = served.browser.page;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Interrupted');
  await createFileThroughUi(page, 'plan.md', 'Status: draft\n');
  await page.keyboard.press('Escape');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

  await sendMessage(page, 'Finalise the plan.');
  await page.getByRole('group', { name: 'Allow edit?' }).waitFor();
  const url = page.url();
  expect(url).toContain('&s=');
  await page.close();

  page = await served.browser.context.newPage();
  await page.goto(url);
  const banner = page.getByTestId('interrupted-turn');
  await banner.waitFor();
  const text = (await banner.textContent()) ?? '';
  expect(text).toContain('Your message: “Finalise the plan.”');
  expect(text).toMatch(/edit — Edit plan\.md \(1 replacement\): did not run \(it was waiting for approval\)/);
  expect(text).toMatch(/write: did not run/);
  // The checkpoint: the prompt, the read and its result; no approval card is left over.
  await chatLog(page).locator('.msg-user').getByText('Finalise the plan.', { exact: true }).waitFor();
  await chatLog(page).locator('[data-tool="read"]').waitFor();
  expect(await chatLog(page).locator('[data-tool="edit"]').count()).toBe(0);
  expect(await page.getByRole('group', { name: 'Allow edit?' }).count()).toBe(0);
  expect(await readFileThroughUi(page, 'plan.md')).toBe('Status: draft\n');

  await page.screenshot({ path: resolve(import.meta.dirname, '.artifacts', 'chat-interrupted-light.png') });
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await banner.waitFor({ state: 'detached' });
  await sendMessage(page, 'Are you still there?');
  await chatLog(page).getByText('Yes, still here.').waitFor();
  await waitForTurnEnd(page);
  expect(model.failures).toEqual([]);

  // The dismissed report stays dismissed after another reload.
  await page.reload();
  await chatLog(page).getByText('Yes, still here.').waitFor();
  expect(await page.getByTestId('interrupted-turn').count()).toBe(0);
});
