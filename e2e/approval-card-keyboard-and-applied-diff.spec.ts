// The daily loop of issue 33 in the built app: a read runs without asking and says in one sentence what it read;
// search asks (seed 000 §5 keeps every built-in but read and view_image asking) and takes the keyboard focus from
// a draft being typed, which stays in the box; Enter allows, Esc denies; an applied edit keeps its diff, folded to
// a line with +/− counts, in the conversation and after a reload; axe finds nothing serious on these screens, light
// and dark. Screenshots (light, dark, 390 px, zh) go to e2e/.artifacts/issue-33/ for people to look at.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { toolSentenceZh } from '../web/ui/chat/tool-sentence-strings';
import { seriousViolations } from './axe';
import { startModelServer, type ModelServer } from './model-server';
import { approvalMode, chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, readFileThroughUi, useServedApp } from './harness';

const ARTIFACTS = resolve(import.meta.dirname, '.artifacts', 'issue-33');
const served = useServedApp();
let model: ModelServer | undefined;
afterAll(async () => model?.close());

const inCard = (page: Page) => page.evaluate(() => document.activeElement?.closest('.approval-card') != null);

async function noSeriousViolations(page: Page, what: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(300); // colour transitions
    expect(await seriousViolations(page), `${what}, ${scheme}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForTimeout(400); // back to light before anything else is drawn or shot
}

/** The file as the Files panel reads it; the panel closes at 390 px, so it is opened again when needed. */
async function fileText(page: Page, path: string) {
  if (!(await page.getByRole('tree', { name: 'Files' }).isVisible()))
    await page.getByRole('button', { name: 'Toggle files panel' }).click();
  return readFileThroughUi(page, path);
}

async function shoot(page: Page, name: string) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.mouse.move(1, 1); // no hover toolbar over the cards
  await page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`) });
}

it('reads unasked, asks for search with the focus in the card and the draft kept, and keeps the edit diff after a reload', async () => {
  model = await startModelServer({
    script: [
      { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
      // Slow enough for the person to start typing their next message before the card appears.
      { delayMs: 1500, toolCalls: [{ name: 'search', arguments: { pattern: 'colour' } }] },
      {
        toolCalls: [
          { name: 'edit', arguments: { path: 'notes.txt', old_string: 'colour: red', new_string: 'colour: blue' } },
        ],
      },
      { text: 'The colour is now blue.' },
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'size: large', new_string: 'x' } }] },
      { text: 'Left as it is.' },
      { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'size: large', new_string: 'y' } }] },
      { text: '好的。' },
    ],
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Daily loop');
  await createFileThroughUi(page, 'notes.txt', 'colour: red\nsize: large\n');
  await page.keyboard.press('Escape');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-daily' });

  await sendMessage(page, 'Make the colour blue.');
  // The read ran without a card, and says what it read in one sentence.
  const read = chatLog(page).locator('[data-tool="read"]');
  await read.locator('.tool-sentence', { hasText: 'Read notes.txt (lines 1–2)' }).waitFor();
  expect(await page.locator('.approval-card').count()).toBe(0);
  await read.locator('summary').click();
  expect(await read.locator('.tool-output, pre').first().textContent()).toContain('colour: red');
  expect(await read.getByText('arguments').count()).toBe(0); // the result, not the raw JSON

  // The person starts their next message; the search card appears meanwhile and takes the focus.
  const box = page.getByLabel('Message', { exact: true });
  await box.click();
  await box.pressSequentially('and then ');
  const card = page.getByRole('group', { name: 'Allow search?' });
  await card.waitFor();
  await expect.poll(() => inCard(page)).toBe(true);
  expect(await box.inputValue()).toBe('and then ');
  const allow = card.getByRole('button', { name: 'Allow', exact: true });
  expect(await allow.getAttribute('aria-keyshortcuts')).toBe('Enter');
  expect(await card.getByRole('button', { name: 'Deny', exact: true }).getAttribute('aria-keyshortcuts')).toBe(
    'Escape',
  );
  await page.waitForTimeout(800); // past the moment in which keys are still the person's typing
  await page.keyboard.press('Enter');
  await card.waitFor({ state: 'detached' });
  const search = chatLog(page).locator('[data-tool="search"] .tool-sentence');
  await search.waitFor();
  expect(await search.textContent()).toBe('Searched for colour — 1 match in 1 file');

  const edit = page.getByRole('group', { name: 'Allow edit?' });
  await edit.waitFor();
  await expect.poll(() => inCard(page)).toBe(true);
  expect(await box.inputValue()).toBe('and then ');
  await noSeriousViolations(page, 'chat with an approval card');
  await shoot(page, 'approval-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await shoot(page, 'approval-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await shoot(page, 'approval-390');
  await page.setViewportSize({ width: 1280, height: 800 });
  await edit.getByRole('button', { name: 'Allow', exact: true }).click();
  await chatLog(page).getByText('The colour is now blue.').waitFor();
  await waitForTurnEnd(page);
  expect(await fileText(page, 'notes.txt')).toBe('colour: blue\nsize: large\n');

  // The applied edit: one line with its counts, opening to the diff; the same after a reload.
  const applied = async () => {
    const tool = chatLog(page).locator('[data-tool="edit"][data-state="done"]').first();
    expect(await tool.getByTestId('diff-counts').textContent()).toContain('+1−1');
    await tool.locator(':scope > summary').click();
    const diff = tool.getByLabel('Changes to notes.txt', { exact: true });
    await diff.waitFor();
    const text = await diff.textContent();
    expect(text).toContain('-colour: red');
    expect(text).toContain('+colour: blue');
  };
  await applied();
  await noSeriousViolations(page, 'chat with an applied edit');
  await shoot(page, 'applied-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.waitForTimeout(300);
  await shoot(page, 'applied-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await shoot(page, 'applied-390');
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.reload();
  await chatLog(page).getByText('The colour is now blue.').waitFor();
  await applied();

  // Esc in the card denies (and does not stop the turn: the model hears the refusal and answers).
  await box.fill('');
  await sendMessage(page, 'Now change the size.');
  const second = page.getByRole('group', { name: 'Allow edit?' });
  await second.waitFor();
  await expect.poll(() => inCard(page)).toBe(true);
  await page.waitForTimeout(800);
  await page.keyboard.press('Escape');
  await chatLog(page).getByText('Left as it is.').waitFor();
  expect(await chatLog(page).locator('[data-tool="edit"][data-state="refused"]').count()).toBe(1);
  expect(await fileText(page, 'notes.txt')).toBe('colour: blue\nsize: large\n');

  // The approval mode is a radio group: one tab stop, arrows move and choose.
  const ask = page.getByRole('radiogroup', { name: 'Approval' }).getByRole('radio', { name: 'Ask', exact: true });
  expect(await ask.getAttribute('aria-checked')).toBe('true');
  await ask.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => approvalMode(page)).toBe('auto');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Auto');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => approvalMode(page)).toBe('ask');

  // The same screens in Chinese.
  await page.getByRole('button', { name: 'Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByRole('tab', { name: 'General' }).click();
  await dialog.getByLabel('Language').selectOption('zh');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  const log = page.locator('[role="log"]'); // named in Chinese now
  const done = log.locator('[data-tool="edit"][data-state="done"]').first();
  await expect
    .poll(() => done.locator('pre.diff').getAttribute('aria-label'))
    .toBe(toolSentenceZh['ts.diffLabel'].replace('{path}', 'notes.txt'));
  await shoot(page, 'applied-zh');
  await page.getByRole('textbox', { name: '消息', exact: true }).fill('把尺寸改掉。');
  await page.getByRole('textbox', { name: '消息', exact: true }).press('Enter');
  await page.locator('.approval-card').waitFor();
  await shoot(page, 'approval-zh');
  // The Enter that sent the message was typing: the card takes the focus once it pauses.
  await expect.poll(() => inCard(page)).toBe(true);
  await page.waitForTimeout(800);
  await page.keyboard.press('Escape');
  await log.getByText('好的。').waitFor();
  expect(model!.failures).toEqual([]);
}, 120_000);
