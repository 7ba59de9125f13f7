// The agent runs in the tab's Worker: a turn that searches 5,000 files leaves the page free (no long task over
// 50 ms while the person types), a stopped answer keeps what streamed with a Continue action, and two tabs on one
// session have one writer: the other follows live, read-only, until it takes over.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import type { Page } from 'playwright-core';

const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer({
    script: (request, index) => {
      const messages = (request.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
      const last = JSON.stringify(messages.at(-1)?.content ?? '');
      if (messages.at(-1)?.role === 'tool') return { text: 'Found the needles.' };
      if (last.includes('Find the needle'))
        return { toolCalls: [{ name: 'search', arguments: { pattern: 'needle-[0-9]+', regex: true } }] };
      if (last.includes('Tell a long story')) return { text: 'Once upon a time there was a folder', hang: true };
      if (last.includes('Write a note'))
        return { toolCalls: [{ name: 'write', arguments: { path: 'note.txt', content: 'x' } }], delayMs: 400 };
      if (last.includes('Stream slowly'))
        return { text: 'Slow words arrive one after another until the end.', chunkDelayMs: 120 };
      return { text: `Answer ${index}.` };
    },
  });
});
afterAll(async () => {
  await model?.close();
});

/** Fills the private workspace's OPFS folder directly: 50 folders × 100 files of 40 lines, a needle in every 250th. */
async function fillWorkspace(page: Page, id: string) {
  await page.evaluate(async (workspaceId) => {
    const root = await navigator.storage.getDirectory();
    const ws = await (await root.getDirectoryHandle('workspaces')).getDirectoryHandle(workspaceId);
    const line = 'const value = compute(alpha, beta, gamma); // an ordinary line of source code\n';
    for (let d = 0; d < 50; d++) {
      const dir = await ws.getDirectoryHandle(`pkg${d}`, { create: true });
      await Promise.all(
        Array.from({ length: 100 }, async (_, f) => {
          const n = d * 100 + f;
          const file = await dir.getFileHandle(`file${f}.ts`, { create: true });
          const out = await file.createWritable();
          await out.write(line.repeat(39) + (n % 250 === 0 ? `export const marker = 'needle-${n}';\n` : line));
          await out.close();
        }),
      );
    }
  }, id);
}

it('searches 5,000 files in the Worker while the page stays responsive to typing', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const id = await createPrivateWorkspace(page, 'Big tree');
  await fillWorkspace(page, id);
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

  await sendMessage(page, 'Find the needle');
  // search asks first (only read and view_image are free); the search itself runs after Allow.
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  const box = page.getByLabel('Message', { exact: true });
  await box.focus();
  // From here on the test itself must not load the page: no role-based locator polling (Playwright evaluates
  // those in the page), only keyboard input and one cheap CSS check per frame.
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; fileReads: number };
    w.longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({
      type: 'longtask',
    });
    // Counts file reads made by the page itself (a Worker has its own globals): the search must make none here.
    w.fileReads = 0;
    const getFile = FileSystemFileHandle.prototype.getFile;
    FileSystemFileHandle.prototype.getFile = function (this: FileSystemFileHandle) {
      w.fileReads++;
      return getFile.call(this);
    };
  });
  await page.keyboard.type('typed while the agent searches', { delay: 60 });
  await page.waitForFunction(() => document.querySelector('[role="log"][aria-busy="false"]') !== null, undefined, {
    timeout: 60_000,
    polling: 100,
  });
  const { long, fileReads } = await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; fileReads: number };
    return { long: w.longTasks, fileReads: w.fileReads };
  });
  await chatLog(page).getByText('Found the needles.').waitFor();
  expect(await box.inputValue()).toBe('typed while the agent searches');
  // The search ran in the Worker and its result reached the model.
  const searched = JSON.stringify(model.requests.at(-1)!.body);
  expect(searched).toContain('needle-0');
  expect(long.filter((d) => d > 50)).toEqual([]);
  expect(fileReads).toBe(0);
});

it('keeps the streamed text when the person stops, and continues from there', async () => {
  const { page } = served.browser;
  await page.getByLabel('Message', { exact: true }).fill('');
  await sendMessage(page, 'Tell a long story');
  // The server streams half the answer and then keeps the connection open.
  await chatLog(page).locator('.msg-assistant.live').getByText('Once upon').waitFor();
  const streamed = (await chatLog(page)
    .locator('.msg-assistant.live .markdown, .msg-assistant.live p')
    .first()
    .textContent())!.trim();
  await page.getByRole('button', { name: 'Stop' }).click();
  await waitForTurnEnd(page);
  // Nothing shown is lost: the partial answer is in the saved conversation, with Continue next to it.
  await chatLog(page).locator('.msg-assistant:not(.live)').getByText(streamed).waitFor();
  const requestsBefore = model.requests.length;
  await chatLog(page).getByRole('button', { name: 'Continue' }).click();
  await waitForTurnEnd(page);
  const sent = JSON.stringify(model.requests[requestsBefore]!.body);
  expect(sent).toContain(streamed);
  expect(sent).toContain('Continue from where you stopped.');
});

it('lets one tab write a session while another follows it live and read-only, until it takes over or the writer closes', async () => {
  const { page, context } = served.browser;
  const title = await page
    .getByRole('navigation')
    .locator('.session-item[aria-current="page"] .nav-label')
    .textContent();
  const other = await context.newPage();
  try {
    await openApp(other, served.server.url);
    await other
      .getByRole('navigation')
      .getByRole('link', { name: /Big tree/ })
      .click();
    await other.getByRole('navigation').getByRole('link', { name: title!.trim() }).first().click();
    const banner = other.getByRole('region', { name: 'Open in another tab' });
    await banner.waitFor();
    expect(await other.getByLabel('Message', { exact: true }).isDisabled()).toBe(true);

    // The writer streams; the reader shows the words as they come, then the saved answer.
    await sendMessage(page, 'Stream slowly');
    await chatLog(other).locator('.msg-assistant.live').waitFor();
    await chatLog(other)
      .locator('.msg-assistant:not(.live)')
      .getByText('Slow words arrive one after another until the end.')
      .waitFor();
    await waitForTurnEnd(page);

    await banner.getByRole('button', { name: 'Take over' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Open in another tab' }).waitFor();
    expect(await page.getByLabel('Message', { exact: true }).isDisabled()).toBe(true);
    await sendMessage(other, 'Now from the second tab');
    await chatLog(other)
      .getByText(/^Answer \d+\.$/)
      .last()
      .waitFor();
    await chatLog(page).getByText('Now from the second tab').waitFor();
    // Closing the writing tab hands the session back: the first tab writes again without a click.
    await other.close();
    await page.getByRole('region', { name: 'Open in another tab' }).waitFor({ state: 'detached' });
    expect(await page.getByLabel('Message', { exact: true }).isDisabled()).toBe(false);
  } finally {
    if (!other.isClosed()) await other.close();
  }
});

it('leaves every key to the message box while the person types, and moves the focus to the approval card at the pause', async () => {
  const { page } = served.browser;
  const box = page.getByLabel('Message', { exact: true });
  await sendMessage(page, 'Write a note');
  await box.focus();
  // The card arrives about 400 ms in, in the middle of the typing: a space typed then must not press Allow.
  await page.keyboard.type('still typing here, with spaces', { delay: 40 });
  const card = chatLog(page).getByRole('group', { name: 'Allow write?' });
  await card.waitFor();
  // Every key went to the box: the card waited for the typing to pause before it took the focus.
  expect(await box.inputValue()).toBe('still typing here, with spaces');
  // Still waiting for the person: a space or an "a" read as an answer would have run the write and removed the card.
  expect(await card.getByRole('button', { name: 'Allow', exact: true }).isVisible()).toBe(true);
  await expect
    .poll(() => card.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)))
    .toBe(true);
  expect(await box.inputValue()).toBe('still typing here, with spaces');
  await card.getByRole('button', { name: 'Deny', exact: true }).click();
  await waitForTurnEnd(page);
});
