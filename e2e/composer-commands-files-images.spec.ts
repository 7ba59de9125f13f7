// The composer in the built app against the scripted model server: the / menu and /new, an unknown command, the @
// picker attaching a file's content to the request, a dropped PDF refused, a pasted PNG reaching the request as an image part, the model
// switcher changing the next request's model, ↑ bringing back the last message, offline keeping the draft, Esc
// stopping a turn, /help, and the Ctrl+K palette opening a session.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';

const served = useServedApp();
let model: ModelServer;

// A 2x1 PNG (red, blue), 8-bit RGB.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAADUlEQVR4nGP4zwAE/wEHAAH/4iOeWQAAAABJRU5ErkJggg==';

type Part = { type: string; text?: string; image_url?: { url: string } };
const lastUser = (r: RecordedRequest) => {
  const messages = (r.body!.messages as { role: string; content: string | Part[] }[]).filter((m) => m.role === 'user');
  return messages.at(-1)!.content;
};

beforeAll(async () => {
  model = await startModelServer({
    models: ['scripted-model', 'other-model'],
    script: [
      { text: 'First answer.' },
      {
        expect: (r) => {
          const parts = lastUser(r) as Part[];
          expect(parts[0]).toEqual({ type: 'text', text: 'Summarise @src/notes.md' });
          expect(parts[1]!.text).toContain('[Workspace file src/notes.md, attached by the person with an @ mention');
          expect(parts[1]!.text).toContain('The secret word is pelican.');
        },
        text: 'It says pelican.',
      },
      {
        expect: (r) => {
          const parts = lastUser(r) as Part[];
          expect(parts).toEqual([
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
          ]);
        },
        text: 'Two pixels.',
      },
      { expect: (r) => expect(r.body!.model).toBe('other-model'), text: 'Answered by the other model.' },
      { text: 'A story that never ends', hang: true },
    ],
  });
});
afterAll(async () => {
  await model?.close();
});

const box = (page: typeof served.browser.page) => page.getByLabel('Message', { exact: true });
const sessionInHash = (page: typeof served.browser.page) =>
  page.evaluate(() => new URLSearchParams(location.hash.slice(1)).get('s'));

it('runs / commands, attaches an @ file, sends a pasted image and switches the model', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const wid = await createPrivateWorkspace(page, 'Composer');
  await page.evaluate(async (id) => {
    const root = await (
      await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
    ).getDirectoryHandle(id);
    const src = await root.getDirectoryHandle('src', { create: true });
    const w = await (await src.getFileHandle('notes.md', { create: true })).createWritable();
    await w.write('# Notes\nThe secret word is pelican.\n');
    await w.close();
  }, wid);
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });

  await sendMessage(page, 'Hello there');
  await chatLog(page).getByText('First answer.').waitFor();
  await waitForTurnEnd(page);
  const first = await sessionInHash(page);
  expect(first).toBeTruthy();

  // ↑ in the empty composer brings the last message back for editing.
  await box(page).press('ArrowUp');
  expect(await box(page).inputValue()).toBe('Hello there');
  await box(page).fill('');

  // The / menu lists the commands; arrow keys and Enter pick /new, which leaves the session.
  await box(page).fill('/');
  const commands = page.getByRole('listbox', { name: 'Commands' });
  await commands.waitFor();
  for (const name of ['/new', '/fork', '/model', '/export', '/clear', '/help'])
    await commands.getByRole('option', { name: new RegExp(`^${name}\\b`) }).waitFor();
  await box(page).fill('/ne');
  await box(page).press('Enter');
  await expect.poll(() => sessionInHash(page)).toBeNull();
  expect(await box(page).inputValue()).toBe('');
  expect(await chatLog(page).getByText('First answer.').count()).toBe(0);

  // An unknown command is said to be unknown and is not sent.
  await box(page).fill('/bogus now');
  await box(page).press('Enter');
  await page.getByRole('alert').getByText('Unknown command /bogus. Type / to see the commands.').waitFor();
  expect(model.requests.filter((r) => r.method === 'POST')).toHaveLength(1);

  // @ opens the file picker; the chosen path becomes a mention and the file's content reaches the model.
  await box(page).fill('Summarise @note');
  const files = page.getByRole('listbox', { name: 'Files' });
  await files.getByRole('option', { name: /notes\.md/ }).waitFor();
  await box(page).press('Enter');
  expect(await box(page).inputValue()).toBe('Summarise @src/notes.md ');
  await box(page).press('Enter');
  await chatLog(page).getByText('It says pelican.').waitFor();
  await waitForTurnEnd(page);

  // A dropped file that is not an image is refused by its bytes, with its name.
  await page.locator('form.composer').evaluate((el) => {
    const data = new DataTransfer();
    data.items.add(new File(['%PDF-1.7'], 'report.pdf', { type: 'application/pdf' }));
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page
    .getByRole('alert')
    .getByText('report.pdf is not a PNG, JPEG, GIF or WebP image, so it was not attached.')
    .waitFor();
  expect(await page.getByRole('list', { name: 'Attached images' }).count()).toBe(0);

  // A pasted PNG shows as a thumbnail with a remove button and goes to the model as an image part.
  const paste = () =>
    box(page).evaluate((el, b64) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], 'shot.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, PNG_BASE64);
  await paste();
  await paste();
  const attached = page.getByRole('list', { name: 'Attached images' });
  await attached.getByRole('img', { name: 'Attached image 2' }).waitFor();
  await attached.getByRole('button', { name: 'Remove image' }).first().click();
  expect(await attached.getByRole('img').count()).toBe(1);
  await sendMessage(page, 'What is in this picture?');
  await chatLog(page).getByText('Two pixels.').waitFor();
  await waitForTurnEnd(page);
  expect(await page.getByRole('list', { name: 'Attached images' }).count()).toBe(0);

  // The model switcher offers the provider's list; the choice applies to the next request.
  await page.getByRole('combobox', { name: 'Model' }).click();
  await page.getByRole('option', { name: 'other-model' }).click();
  expect(model.requests.some((r) => r.method === 'GET' && r.path === '/v1/models')).toBe(true);
  expect(await page.getByRole('combobox', { name: 'Model' }).textContent()).toContain('other-model');
  await sendMessage(page, 'Which model are you?');
  await chatLog(page).getByText('Answered by the other model.').waitFor();
  await waitForTurnEnd(page);
  expect(model.failures).toEqual([]);
});

it('keeps the draft when offline, stops a running turn with Esc, shows the shortcuts from /help and opens a session from the Ctrl+K palette', async () => {
  const { page } = served.browser;
  const second = await sessionInHash(page);
  const posts = model.requests.filter((r) => r.method === 'POST').length;
  await page.context().setOffline(true);
  await sendMessage(page, 'Are you there?');
  await page.getByText('You are offline. Your message is kept here; send it when the connection is back.').waitFor();
  expect(await box(page).inputValue()).toBe('Are you there?');
  expect(model.requests.filter((r) => r.method === 'POST')).toHaveLength(posts);
  await page.context().setOffline(false);
  await box(page).fill('');

  await sendMessage(page, 'Tell me a long story');
  await chatLog(page).getByText('A story that never ends', { exact: false }).waitFor();
  await box(page).press('Escape');
  await waitForTurnEnd(page);
  await page.getByRole('button', { name: 'Send' }).waitFor();

  await box(page).fill('/help');
  await box(page).press('Enter');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.getByText('Command palette').waitFor();
  await help.getByText('Stop the running turn').waitFor();
  await page.keyboard.press('Escape');
  await help.waitFor({ state: 'detached' });

  await page.keyboard.press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette
    .getByRole('combobox', { name: 'Search sessions, workspaces, settings and commands' })
    .fill('Hello there');
  await palette.getByRole('option', { name: /Hello there/ }).waitFor();
  await page.keyboard.press('Enter');
  await palette.waitFor({ state: 'detached' });
  await chatLog(page).getByText('First answer.').waitFor();
  expect(await sessionInHash(page)).not.toBe(second);
  expect(model.failures).toEqual([]);
});
