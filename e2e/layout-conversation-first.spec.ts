// The conversation-first layout in the built app: the message list owns the height at 1280x800, the sidebar
// collapses (button and Ctrl+B) and is a closed drawer on a phone with the composer in view and nothing running off
// screen sideways, sessions are found by a word of their conversation and renamed in place, the session menu works
// from the keyboard, dialogs focus their first field, the files panel keeps its width. The tests share one browser
// and run in order.
import type { Locator, Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer } from './model-server';

const app = useServedApp();
let model: ModelServer | undefined;
afterAll(async () => model?.close());

const rectOf = (l: Locator) => l.evaluate((e) => e.getBoundingClientRect().toJSON() as DOMRect);
const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Workspaces and sessions' });
const composer = (page: Page) => page.getByLabel('Message', { exact: true });
const focusedLabel = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= innerWidth);

it('gives the message list at least 70 % of the height at 1280x800', async () => {
  const { page } = app.browser;
  model = await startModelServer({
    script: [{ text: 'First answer.' }, { text: 'Pelicans fly south for the winter.' }, { text: 'Third.' }],
  });
  await openApp(page, app.server.url);
  await createPrivateWorkspace(page, 'Layout');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
  await sendMessage(page, 'Hello');
  await chatLog(page).getByText('First answer.').waitFor();
  await waitForTurnEnd(page);
  const log = await rectOf(chatLog(page));
  expect(log.height / 800).toBeGreaterThanOrEqual(0.7);
  const box = await rectOf(composer(page));
  expect(box.bottom).toBeLessThanOrEqual(800);
  // The workspace's details wait behind a button instead of taking rows above the conversation.
  expect(await page.getByTestId('workspace-id').isVisible()).toBe(false);
  await page.getByRole('button', { name: 'Workspace details' }).click();
  expect(await page.getByTestId('workspace-id').isVisible()).toBe(true);
  await page.keyboard.press('Escape');
  expect(await page.getByTestId('workspace-id').isVisible()).toBe(false);
});

it('collapses the sidebar with its button and with Ctrl+B, giving the width to the conversation', async () => {
  const { page } = app.browser;
  const wide = (await rectOf(chatLog(page))).width;
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await sidebar(page).waitFor({ state: 'hidden' });
  expect((await rectOf(chatLog(page))).width).toBeGreaterThan(wide + 200);
  await composer(page).focus(); // works while typing too
  await page.keyboard.press('Control+b');
  await sidebar(page).waitFor({ state: 'visible' });
  await page.keyboard.press('Control+b');
  await sidebar(page).waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Toggle sidebar' }).click();
  await sidebar(page).waitFor({ state: 'visible' });
});

it('starts a new session with Ctrl+Shift+O and finds a session by a word of its conversation', async () => {
  const { page } = app.browser;
  await page.keyboard.press('Control+Shift+O');
  await chatLog(page).getByText('Ask the agent to read, explain or change files in this workspace.').waitFor();
  expect(await page.getByRole('heading', { name: 'New session' }).count()).toBe(1);
  await sendMessage(page, 'Where do the birds go?');
  await chatLog(page).getByText('Pelicans fly south for the winter.').waitFor();
  await waitForTurnEnd(page);
  await sidebar(page)
    .getByRole('link', { name: /Where do the birds go/ })
    .waitFor();

  const search = sidebar(page).getByRole('searchbox', { name: 'Search sessions' });
  await search.fill('winter');
  // Only in the answer, not in any title: found through the conversation, shown with the words around it.
  const hit = sidebar(page).getByRole('link', { name: /Where do the birds go/ });
  await expect
    .poll(() =>
      sidebar(page)
        .getByRole('link', { name: /^Hello/ })
        .count(),
    )
    .toBe(0);
  expect(await hit.textContent()).toContain('south for the winter');
  await search.fill('albatross');
  await sidebar(page).getByText('No session matches “albatross”.').waitFor();
  await search.press('Escape');
  await sidebar(page)
    .getByRole('link', { name: /^Hello/ })
    .waitFor();
  // Grouped by day: both were made today.
  expect(await sidebar(page).getByRole('heading', { name: 'Today' }).count()).toBe(1);
});

it('renames a session in place: Enter saves, Escape cancels, from the sidebar and from the session menu', async () => {
  const { page } = app.browser;
  await sidebar(page)
    .getByRole('link', { name: /^Hello/ })
    .dblclick();
  const field = sidebar(page).getByRole('textbox', { name: 'Session title' });
  await field.fill('Greetings');
  await field.press('Enter');
  await sidebar(page)
    .getByRole('link', { name: /^Greetings/ })
    .waitFor();

  await sidebar(page)
    .getByRole('link', { name: /^Greetings/ })
    .dblclick();
  await field.fill('Not this');
  await field.press('Escape');
  await field.waitFor({ state: 'detached' });
  expect(
    await sidebar(page)
      .getByRole('link', { name: /^Not this/ })
      .count(),
  ).toBe(0);
  expect(await sidebar(page).isVisible()).toBe(true); // Escape went to the field, not to the layout

  // The open session (Greetings: the double-click's first click opened it) through its menu, by keyboard.
  const menuButton = page.getByRole('button', { name: 'Session menu' });
  await menuButton.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu', { name: 'Session menu' });
  await menu.waitFor();
  await expect.poll(() => focusedLabel(page)).toBe('Rename'); // focus moves in when the menu's toggle event comes
  await page.keyboard.press('ArrowDown');
  expect(await focusedLabel(page)).toBe('Fork session');
  await page.keyboard.press('End');
  expect(await focusedLabel(page)).toBe('Delete');
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'hidden' });
  await expect.poll(() => focusedLabel(page)).toBe('Session menu');
  await page.keyboard.press('ArrowDown');
  await menu.getByRole('menuitem', { name: 'Rename' }).press('Enter');
  const inBar = page.getByRole('main').getByRole('textbox', { name: 'Session title' });
  await inBar.fill('Hello again');
  await inBar.press('Enter');
  await page.getByRole('heading', { name: 'Hello again' }).waitFor();
  await sidebar(page)
    .getByRole('link', { name: /^Hello again/ })
    .waitFor();
});

it('focuses a dialog’s first field, submits it with Enter and closes it with Escape', async () => {
  const { page } = app.browser;
  await page.getByRole('button', { name: 'Workspace details' }).click();
  await page.getByRole('dialog', { name: 'Workspace details' }).getByRole('button', { name: 'Rename' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rename workspace' });
  const name = dialog.getByLabel('Name');
  expect(await name.evaluate((e) => e === document.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Workspace details' }).click();
  await page.getByRole('dialog', { name: 'Workspace details' }).getByRole('button', { name: 'Rename' }).click();
  await page.keyboard.type('Layout lab'); // the prefilled name is selected: typing replaces it
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Layout lab' }).waitFor();

  // A confirmation without a field starts on its least committal button: a stray Enter does not delete.
  await page.getByRole('button', { name: 'Session menu' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete' });
  await expect.poll(() => focusedLabel(page)).toBe('Cancel');
  await page.keyboard.press('Escape');
  await confirm.waitFor({ state: 'detached' });

  // A choice above a name: the name, what is typed, takes focus.
  await page.getByRole('button', { name: 'New workspace' }).click();
  const create = page.getByRole('dialog', { name: 'New workspace' });
  expect(await create.getByLabel('Name').evaluate((e) => e === document.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await create.waitFor({ state: 'detached' });

  // Settings opens on its tab strip, not on ×.
  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.waitFor();
  expect(await settings.getByRole('tab', { name: 'General' }).evaluate((e) => e === document.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await settings.waitFor({ state: 'detached' });
});

it('resizes the files panel from the keyboard, keeps the width across a reload, and folds it away', async () => {
  const { page } = app.browser;
  const handle = page.getByRole('separator', { name: 'Resize files panel' });
  const before = Number(await handle.getAttribute('aria-valuenow'));
  await handle.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
  expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(before + 48);
  const panel = page.getByRole('complementary', { name: 'Side panel' });
  expect(Math.round((await rectOf(panel)).width)).toBe(before + 48);
  await page.reload();
  await chatLog(page).waitFor();
  expect(Number(await handle.getAttribute('aria-valuenow'))).toBe(before + 48);
  expect(await panel.getByRole('tab', { name: 'Files' }).getAttribute('aria-selected')).toBe('true');

  await page.getByRole('button', { name: 'Toggle files panel' }).click();
  await panel.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Toggle files panel' }).click();
  await panel.waitFor({ state: 'visible' });
});

it('on a 390x844 phone: the sidebar is a closed drawer, the composer is in view, nothing scrolls sideways', async () => {
  const { page } = app.browser;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await chatLog(page).waitFor();
  expect(await sidebar(page).isVisible()).toBe(false);
  expect(await page.getByRole('complementary', { name: 'Side panel' }).isVisible()).toBe(false); // starts folded below 1024px
  const box = await rectOf(composer(page));
  expect(box.top).toBeGreaterThanOrEqual(0);
  expect(box.bottom).toBeLessThanOrEqual(844);
  expect(await noSidewaysScroll(page)).toBe(true);

  // The drawer closes on choosing a session, on Escape, and on a click beside it.
  const toggle = page.getByRole('button', { name: 'Toggle sidebar' });
  await toggle.click();
  await sidebar(page)
    .getByRole('link', { name: /^Where do the birds go/ })
    .click();
  await sidebar(page).waitFor({ state: 'hidden' });
  await page.getByRole('heading', { name: 'Where do the birds go?' }).waitFor();
  await toggle.click();
  await sidebar(page).waitFor({ state: 'visible' });
  await page.keyboard.press('Escape');
  await sidebar(page).waitFor({ state: 'hidden' });
  await toggle.click();
  await sidebar(page).waitFor({ state: 'visible' });
  await page.mouse.click(375, 400);
  await sidebar(page).waitFor({ state: 'hidden' });

  // Files on a phone: a sheet over the conversation, folded again with the same button.
  await page.getByRole('button', { name: 'Toggle files panel' }).click();
  const files = await rectOf(page.getByRole('complementary', { name: 'Side panel' }));
  expect(files.right).toBeLessThanOrEqual(390);
  expect(await noSidewaysScroll(page)).toBe(true);
  await page.getByRole('button', { name: 'Toggle files panel' }).click();

  await page.setViewportSize({ width: 360, height: 740 });
  expect(await noSidewaysScroll(page)).toBe(true);
  expect((await rectOf(composer(page))).bottom).toBeLessThanOrEqual(740);
  await page.setViewportSize({ width: 1280, height: 800 });
});

it('says calmly near the composer when the browser is offline, and offers Install app when the browser does', async () => {
  const { page } = app.browser;
  await page.context().setOffline(true);
  const note = page.getByRole('status').filter({ hasText: 'You are offline.' });
  await note.waitFor();
  expect((await rectOf(note)).bottom).toBeLessThanOrEqual((await rectOf(composer(page))).top + 1);
  await page.context().setOffline(false);
  await note.waitFor({ state: 'detached' });

  // Chromium may already have offered installation (the app is installable); a new offer takes its place.
  await page.evaluate(() => {
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: async () => void ((window as unknown as { prompted: boolean }).prompted = true),
    });
    dispatchEvent(offer);
  });
  await page.getByRole('button', { name: 'Install app' }).click();
  expect(await page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
  await page.getByRole('button', { name: 'Install app' }).waitFor({ state: 'detached' });
});

it('renames and deletes a session from its row in the list (the open session is deleted from its own menu)', async () => {
  const { page } = app.browser;
  const open = sidebar(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Where do the birds go?' }) });
  await open.hover();
  await open.getByRole('button', { name: 'More for “Where do the birds go?”' }).click();
  const rowMenu = page.getByRole('menu', { name: 'More for “Where do the birds go?”' });
  expect(await rowMenu.getByRole('menuitem').allTextContents()).toEqual(['Rename']);
  await rowMenu.getByRole('menuitem', { name: 'Rename' }).click();
  await sidebar(page).getByRole('textbox', { name: 'Session title' }).press('Escape');

  const other = sidebar(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: 'Hello again' }) });
  await other.hover();
  await other.getByRole('button', { name: 'More for “Hello again”' }).click();
  await page.getByRole('menu', { name: 'More for “Hello again”' }).getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  await sidebar(page).getByRole('link', { name: 'Hello again' }).waitFor({ state: 'detached' });
  expect(await sidebar(page).getByRole('link', { name: 'Where do the birds go?' }).count()).toBe(1);
});

it('forks the open session from its menu, numbering forks so they can be told apart', async () => {
  const { page } = app.browser;
  for (const title of ['Where do the birds go? (fork)', 'Where do the birds go? (fork 2)']) {
    await sidebar(page).getByRole('link', { name: 'Where do the birds go?', exact: true }).click();
    await page.getByRole('button', { name: 'Session menu' }).click();
    await page.getByRole('menuitem', { name: 'Fork session' }).click();
    await page.getByRole('heading', { name: title, exact: true }).waitFor();
    await sidebar(page).getByRole('link', { name: title, exact: true }).waitFor();
  }
  await chatLog(page).getByText('Pelicans fly south for the winter.').waitFor();
});
