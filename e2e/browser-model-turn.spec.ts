// A model in the browser (issue 21), through the built app's real code path under its strict CSP: the tiny GGUF
// made by scripts/make-tiny-gguf.mjs (no download) is added in Settings → Model → In this browser (copied into
// OPFS, size and SHA-256 shown), chosen, and a whole turn runs on llama.cpp in WebAssembly: the grammar-held model
// calls `read` on the file the spec made, the result envelope (ok) goes back, and a `final` with text ends the turn.
// Tokens/s and memory are shown while it runs; deleting the model reports the space it frees.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTinyGguf, STEERED_PATH } from '../scripts/make-tiny-gguf.mjs';
import { chatLog, openModelSettings, sendMessage, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
beforeAll(async () => openApp(served.browser.page, served.server.url));

describe('the in-browser model', () => {
  it('runs a whole agent turn on the tiny GGUF: read, envelope, final', async () => {
    const { page } = served.browser;
    const gguf = Buffer.from(makeTinyGguf());
    await createPrivateWorkspace(page, 'Browser model');
    // The tiny model's hand-set weights spell this path (STEERED_PATH) as read's argument.
    await createFileThroughUi(page, STEERED_PATH, 'the answer is 42\n');
    await page.keyboard.press('Escape');

    const dialog = await openModelSettings(page);
    await dialog
      .getByLabel('Add a .gguf file')
      .setInputFiles({ name: 'tiny.gguf', mimeType: 'application/octet-stream', buffer: gguf });
    const item = dialog.getByRole('listitem').filter({ hasText: 'tiny.gguf' });
    await item.waitFor();
    const sha = createHash('sha256').update(gguf).digest('hex');
    expect(await item.locator('code').getAttribute('title')).toBe(sha);
    // The app's system prompt and the JSON protocol's tool schemas are long in a byte-level vocabulary.
    await dialog.getByLabel('Context window for this model (tokens)').fill('32768');
    await item.getByRole('button', { name: 'Use this model: tiny.gguf' }).click();
    await dialog.getByTestId('browser-model-note').getByText('tiny.gguf is the model now (context 32768).').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await dialog.waitFor({ state: 'detached' });

    await sendMessage(page, 'What do the notes say?');
    await waitForTurnEnd(page);
    const log = chatLog(page);
    // The read succeeded: the card is done (not failed), names the file, and its output is the file's text, which
    // is what the result envelope (ok: true) carried back to the model. Then the model's final answer ends the turn:
    // "hi", as its weights are set to say once a tool result is in its context.
    const card = log.locator('[data-tool="read"]');
    expect(await card.count()).toBe(1);
    expect(await card.getAttribute('data-state')).toBe('done');
    await card.locator('summary').click();
    expect(await card.getByTestId('tool-path').innerText()).toContain(STEERED_PATH);
    await card.getByText('the answer is 42').waitFor();
    const answers = log.locator('article.msg-assistant');
    expect((await answers.last().innerText()).trim().split('\n')[0]).toBe('hi');
    expect(await log.getByRole('alert').count()).toBe(0);
    // The composer bar shows what the model in the tab did: its rate and memory estimate.
    await expect
      .poll(async () =>
        page
          .getByRole('status', { name: /^Model in this browser: / })
          .textContent()
          .catch(() => ''),
      )
      .toMatch(/^\d+(\.\d)? tok\/s · ≈ \d+(\.\d+)? [kKMG]i?B$/);

    // While (and after) it ran: tokens/s and memory in Settings; deleting frees the file's bytes.
    const again = await openModelSettings(page);
    await expect
      .poll(async () =>
        again
          .getByTestId('browser-model-status')
          .innerText()
          .catch(() => ''),
      )
      .toMatch(/tokens\/s · memory ≈ \d+ MiB · context 32768/);
    await again
      .getByRole('listitem')
      .filter({ hasText: 'tiny.gguf' })
      .getByRole('button', { name: 'Delete: tiny.gguf' })
      .click();
    await again
      .getByTestId('browser-model-note')
      .getByText(/Deleted tiny\.gguf: \d+ MiB freed\./)
      .waitFor();
  }, 120_000);
});
