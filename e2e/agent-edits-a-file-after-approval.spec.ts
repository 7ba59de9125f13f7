// The agent in the built app, for each protocol: the model (scripted server) reads a file, asks to edit it, the
// person sees the diff and allows, the file changes (checked through the Files panel) and the answer is shown.
// Also writes chat screenshots (light/dark) to e2e/.artifacts/.
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type WireProtocol } from './model-server';
import { chatLog, configureModel, sendMessage } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, readFileThroughUi, useServedApp } from './harness';

const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
const served = useServedApp();

beforeAll(async () => {
  await openApp(served.browser.page, served.server.url);
});

describe.each<WireProtocol>(['openai', 'deepseek', 'anthropic', 'responses'])('over %s', (protocol) => {
  let model: ModelServer;
  afterAll(async () => model?.close());

  it('reads, shows the edit diff for approval, edits after Allow, and answers', async () => {
    model = await startModelServer({
      script: [
        {
          thinking: 'The person wants the colour changed; read the file first.',
          text: 'Let me read the file.',
          toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }],
          usage: { input: 120, output: 20 },
        },
        {
          toolCalls: [
            { name: 'edit', arguments: { path: 'notes.txt', old_string: 'colour: red', new_string: 'colour: blue' } },
          ],
        },
        { text: 'Done: the colour is now **blue**.\n\n```txt\ncolour: blue\n```' },
      ],
    });
    const { page } = served.browser;
    await createPrivateWorkspace(page, `Agent ${protocol}`);
    await createFileThroughUi(page, 'notes.txt', 'colour: red\nsize: large\n');
    await page.keyboard.press('Escape');
    await configureModel(page, { protocol, baseUrl: model.baseUrl(protocol), key: `sk-e2e-${protocol}` });

    await sendMessage(page, 'Please make the colour blue.');
    const card = page.getByRole('group', { name: 'Allow edit?' });
    await card.waitFor();
    const diff = await card.getByLabel('Changes').textContent();
    expect(diff).toContain('-colour: red');
    expect(diff).toContain('+colour: blue');
    // The read ran before (free), its result is in the log, marked as untrusted output.
    await chatLog(page).locator('[data-tool="read"]').waitFor();
    expect(await readFileThroughUi(page, 'notes.txt')).toBe('colour: red\nsize: large\n');
    if (protocol === 'openai') {
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: resolve(ARTIFACTS, 'chat-approval-light.png') });
    }
    await card.getByRole('button', { name: 'Allow', exact: true }).click();

    await chatLog(page).getByText('Done: the colour is now').waitFor();
    expect(await chatLog(page).locator('.md strong').last().textContent()).toBe('blue');
    expect(await readFileThroughUi(page, 'notes.txt')).toBe('colour: blue\nsize: large\n');
    expect(model.failures).toEqual([]);
    expect(model.requests).toHaveLength(3);
    const auth = model.requests[0]!.headers[protocol === 'anthropic' ? 'x-api-key' : 'authorization'];
    expect(auth).toContain(`sk-e2e-${protocol}`);
    // The session is in the sidebar under the prompt's title.
    await page.getByRole('navigation').getByRole('link', { name: 'Please make the colour blue.' }).waitFor();

    if (protocol === 'openai') {
      await chatLog(page).locator('[data-tool="read"] summary').click();
      await chatLog(page).locator('.thinking summary').first().click();
      await page.screenshot({ path: resolve(ARTIFACTS, 'chat-light.png') });
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForTimeout(400); // let the buttons' background transition finish
      await page.screenshot({ path: resolve(ARTIFACTS, 'chat-dark.png') });
      await page.emulateMedia({ colorScheme: 'light' });
    }
  });
});
