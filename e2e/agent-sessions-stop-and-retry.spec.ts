// Turn control and session life cycle in the built app: Stop cancels a streaming answer, a provider error shows a
// headline in words, its code and sentence with a Retry that re-runs the turn, then rename, fork from a message,
// export JSON/Markdown, import JSON, switch sessions from the sidebar, new session and delete.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp, type AppBrowser } from './harness';

const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer({
    script: [
      { text: 'First answer.' },
      { text: 'This answer never finishes', hang: true },
      { error: { status: 400, message: 'Unsupported parameter: temperature.' } },
      { text: 'Recovered answer.' },
    ],
  });
});
afterAll(async () => {
  await model?.close();
});

const sidebar = (page: AppBrowser['page']) => page.getByRole('navigation');
/** The open session's menu in the top bar (rename, fork, export, import, delete). */
async function sessionMenu(page: AppBrowser['page'], item: string) {
  await page.getByRole('button', { name: 'Session menu' }).click();
  await page.getByRole('menu', { name: 'Session menu' }).getByRole('menuitem', { name: item }).click();
}

it('stops a streaming answer, shows a provider error with its code and retries the turn', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Sessions');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

  await sendMessage(page, 'Hello');
  await chatLog(page).getByText('First answer.').waitFor();

  await sendMessage(page, 'Tell me a long story');
  // The server sent the first chunk and keeps the stream open.
  await expect.poll(() => model.requests.length).toBe(2);
  await chatLog(page).locator('.msg-assistant.live').waitFor();
  await page.getByRole('button', { name: 'Stop' }).click();
  await chatLog(page).getByText('Stopped. The finished tool calls keep their results.').waitFor();
  expect(await page.getByRole('button', { name: 'Send' }).count()).toBe(1);

  await sendMessage(page, 'Try again please');
  const error = chatLog(page).getByRole('alert');
  // The headline in words, the code and status as the small print (issue 33).
  await error.getByText('The provider returned an error', { exact: true }).waitFor();
  expect(await error.locator('.chat-error-code').textContent()).toBe('E_PROVIDER_HTTP · 400');
  expect(await error.textContent()).toContain('The provider answered 400');
  expect(await error.textContent()).toContain('Unsupported parameter: temperature.');
  await error.getByRole('button', { name: 'Retry turn' }).click();
  await chatLog(page).getByText('Recovered answer.').waitFor();
  expect(await chatLog(page).getByRole('alert').count()).toBe(0);
  // The retried prompt is in the history once.
  expect(await chatLog(page).locator('.msg-user').getByText('Try again please', { exact: true }).count()).toBe(1);
  expect(model.requests.at(-1)!.rawBody.match(/Try again please/g)).toHaveLength(1);
});

it('renames, forks, exports, imports, switches, starts a new session and deletes', async () => {
  const { page } = served.browser;
  // Rename.
  // Rename in place: the title in the top bar becomes a field; Enter saves.
  await sessionMenu(page, 'Rename');
  const rename = page.getByRole('main').getByRole('textbox', { name: 'Session title' });
  await rename.fill('Story time');
  await rename.press('Enter');
  await sidebar(page).getByRole('link', { name: 'Story time' }).waitFor();

  // Export JSON and Markdown.
  const [json] = await Promise.all([page.waitForEvent('download'), sessionMenu(page, 'Export JSON')]);
  const exported = JSON.parse(await readFile((await json.path())!, 'utf8')) as {
    format: string;
    title: string;
    messages: { role: string }[];
  };
  expect(exported.format).toBe('i-session');
  expect(exported.title).toBe('Story time');
  expect(exported.messages.filter((m) => m.role === 'user')).toHaveLength(3);
  const [md] = await Promise.all([page.waitForEvent('download'), sessionMenu(page, 'Export Markdown')]);
  expect(md.suggestedFilename()).toBe('Story-time.md');
  expect(await readFile((await md.path())!, 'utf8')).toContain('Recovered answer.');

  // Fork from the first answer: a new session holding the first exchange only.
  await chatLog(page).locator('.msg-assistant').first().getByRole('button', { name: 'Fork from here' }).click();
  await sidebar(page).getByRole('link', { name: 'Story time (fork)' }).waitFor();
  await page.getByRole('heading', { name: 'Story time (fork)' }).waitFor();
  await chatLog(page).getByText('First answer.').waitFor();
  expect(await chatLog(page).getByText('Recovered answer.').count()).toBe(0);

  // Import the exported JSON as another session.
  await page
    .getByLabel('Import JSON')
    .setInputFiles({ name: 'story.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
  await page.getByText('Imported "Story time".').waitFor();
  expect(await sidebar(page).getByRole('link', { name: 'Story time', exact: true }).count()).toBe(2);
  await chatLog(page).getByText('Recovered answer.').waitFor();

  // A broken file is refused with the reason; nothing is added.
  await page.getByLabel('Import JSON').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format":"i-session","version":1}'),
  });
  await page.getByText(/E_SESSION_IMPORT_INVALID|not an i session export/).waitFor();
  expect(
    await sidebar(page)
      .getByRole('link', { name: /Story time/ })
      .count(),
  ).toBe(3);

  // Switch from the sidebar, new session, delete.
  await sidebar(page).getByRole('link', { name: 'Story time (fork)' }).click();
  await page.getByRole('heading', { name: 'Story time (fork)' }).waitFor();
  await sidebar(page).getByRole('button', { name: 'New session' }).click();
  await chatLog(page).getByText('Ask the agent to read, explain or change files in this workspace.').waitFor();
  await sidebar(page).getByRole('link', { name: 'Story time (fork)' }).click();
  await sessionMenu(page, 'Delete');
  await page.getByRole('dialog', { name: 'Delete' }).getByRole('button', { name: 'Delete' }).click();
  await sidebar(page).getByRole('link', { name: 'Story time (fork)' }).waitFor({ state: 'detached' });
  expect(
    await sidebar(page)
      .getByRole('link', { name: /Story time/ })
      .count(),
  ).toBe(2);
});
