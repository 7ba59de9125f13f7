// The context a person can see and steer (built app, scripted model server): the composer's context meter, the
// /context breakdown, `/compact keep the file list` (the focus reaches the summary request, the meter drops), and
// Settings → Usage: prices, the workspace's cost, and the prompt-cache ratio from a provider that reports cached
// tokens; the session menu's totals.
import type { Page } from 'playwright-core';
import { afterEach, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';
import { chatLog, fillModelForm, openModelSettings, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const SUMMARY = 'Goal: check the context meter.\nFiles touched: notes.txt (read).';
const FOCUS = 'keep the file list';

const lastUserText = (r: RecordedRequest) => {
  const messages = (r.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
};
const isSummaryRequest = (r: RecordedRequest) => lastUserText(r).includes('Summarise the conversation above');

async function setModel(page: Page, server: ModelServer, window?: string) {
  const settings = await openModelSettings(page);
  await fillModelForm(page, { protocol: 'openai', baseUrl: server.baseUrl('openai'), key: 'sk-e2e-meter' });
  if (window) await settings.getByLabel('Context window (tokens)').fill(window);
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await settings.getByTestId('model-status').getByText('Saved.').waitFor();
  await settings.getByRole('button', { name: 'Close' }).first().click();
  await settings.waitFor({ state: 'detached' });
}

/** The meter's exact figure, from its tooltip ("12,345 of 128,000 tokens (10%) in the next request"). */
async function meterTokens(page: Page): Promise<{ tokens: number; estimated: boolean }> {
  const meter = page.getByRole('button', { name: 'Context usage' });
  await meter.waitFor();
  const tip = page.locator(`[id="${await meter.getAttribute('aria-describedby')}"]`);
  const line = (await tip.locator('p').first().textContent()) ?? '';
  const m = /^([\d,]+) of 128,000 tokens/.exec(line);
  if (!m) throw new Error(`unexpected meter tooltip: ${line}`);
  return { tokens: Number(m[1]!.replace(/,/g, '')), estimated: ((await meter.textContent()) ?? '').startsWith('≈') };
}

it('shows the context meter and the /context breakdown, and /compact with a focus sends it and makes the meter drop', async () => {
  let answers = 0;
  model = await startModelServer({
    script: (request) => {
      if (isSummaryRequest(request)) return { text: SUMMARY, usage: { input: 3000, output: 40 } };
      answers++;
      // The provider says each request held ~50k tokens, so the meter stands on reported figures (no ≈).
      return { text: `Answer ${answers}.`, usage: { input: 50_000 + answers * 1000, output: 20 } };
    },
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Meter');
  await setModel(page, model, '128000');

  for (let n = 1; n <= 4; n++) {
    await sendMessage(page, `Step ${n}: look at notes.txt.`);
    await chatLog(page).getByText(`Answer ${n}.`).waitFor();
    await waitForTurnEnd(page);
  }
  const before = await meterTokens(page);
  expect(before.estimated).toBe(false);
  expect(before.tokens).toBeGreaterThanOrEqual(54_020);
  expect(await page.getByRole('button', { name: 'Context usage' }).textContent()).toMatch(/^\d\dk \/ 128k$/);

  // /context: the next request part by part, with what a compaction would fold.
  await sendMessage(page, '/context');
  const dialog = page.getByRole('dialog', { name: 'Context' });
  await dialog.getByTestId('context-total').waitFor();
  expect(await dialog.getByTestId('context-total').textContent()).toMatch(/^[\d,]+ of 128,000 tokens \(\d+%\)$/);
  for (const part of ['System prompt', 'Tools: built-in', 'Conversation', 'Free'])
    await dialog.getByRole('rowheader', { name: new RegExp(`^${part}`) }).waitFor();
  expect(await dialog.getByRole('rowheader', { name: /^Conversation/ }).textContent()).toContain('8 messages');
  expect(await dialog.getByTestId('context-would-fold').textContent()).toMatch(
    /^Compacting now would fold [1-9]\d* messages/,
  );
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });

  await sendMessage(page, `/compact ${FOCUS}`);
  await chatLog(page).locator('section.compaction').waitFor();
  await waitForTurnEnd(page);
  const summaryRequest = model.requests.find(isSummaryRequest);
  expect(summaryRequest?.rawBody).toContain(FOCUS);
  // After the summary the size is the summary and the kept messages, estimated until the next answer reports usage.
  await expect.poll(async () => (await meterTokens(page)).tokens, { timeout: 10_000 }).toBeLessThan(before.tokens / 2);
  expect((await meterTokens(page)).estimated).toBe(true);
  expect(model.failures).toEqual([]);
});

it('shows the cache hit ratio, the workspace cost with the prices set, and the session totals', async () => {
  let answers = 0;
  model = await startModelServer({
    script: () => {
      answers++;
      // The second request reads 800 of its 1,000 input tokens from the provider's cache: Σ read / Σ input = 40 %.
      return { text: `Cached ${answers}.`, usage: { input: 1000, output: 5, cached: answers === 1 ? 0 : 800 } };
    },
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Cache');
  await setModel(page, model);
  for (let n = 1; n <= 2; n++) {
    await sendMessage(page, `Question ${n}`);
    await chatLog(page).getByText(`Cached ${n}.`).waitFor();
    await waitForTurnEnd(page);
  }

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Usage' }).click();
  await settings.getByTestId('cache-view').waitFor();
  expect(await settings.getByTestId('cache-hit-ratio').textContent()).toBe('40%');
  expect(await settings.getByTestId('cache-hit-recent').textContent()).toBe('Latest 2 requests: 40%');
  expect(await settings.getByTestId('cache-target').textContent()).toBe('Target 99%: not met');
  await settings.getByRole('img', { name: /Cache hit ratio of the latest 2 requests/ }).waitFor();
  // Without prices the cost is "—", never a guess.
  const totals = settings.getByTestId('workspace-totals');
  expect(await totals.locator('.usage-cost').textContent()).toBe('—');

  // A price for the scripted model (cache reads cheaper): 1,000 + 200 plain × $2, 800 read × $0.5, 10 out × $8 per M.
  await settings.getByLabel('Model name').fill('scripted-model');
  await settings.getByLabel('Input $/M').fill('2');
  await settings.getByLabel('Output $/M').fill('8');
  await settings.getByLabel('Cache read $/M').fill('0.5');
  await settings.getByRole('button', { name: 'Save price' }).click();
  expect(await settings.getByTestId('prices-status').textContent()).toBe('Saved the price of scripted-model.');
  await settings.getByRole('button', { name: 'Edit the price of scripted-model' }).waitFor();
  await expect.poll(() => totals.locator('.usage-cost').textContent()).toBe('$0.0029');

  // A vendor's list is added only when asked, keeps its (older) date, and each entry can be removed again.
  expect(await settings.getByTestId('prices-as-of').textContent()).toBe(
    `Prices as of ${new Date().toISOString().slice(0, 10)}.`,
  );
  await settings.getByLabel('Provider price list').selectOption('deepseek');
  await settings.getByRole('button', { name: 'Add these prices' }).click();
  await settings.getByRole('button', { name: 'Remove the price of deepseek-chat' }).waitFor();
  expect(await settings.getByTestId('prices-as-of').textContent()).toBe('Prices as of 2025-09-05.');
  await settings.getByRole('button', { name: 'Remove the price of deepseek-chat' }).click();
  await settings.getByRole('button', { name: 'Remove the price of deepseek-chat' }).waitFor({ state: 'detached' });
  await settings.getByRole('button', { name: 'Remove the price of scripted-model' }).waitFor();
  // A price that is not a number is refused with the field named, and nothing is saved.
  await settings.getByLabel('Model name').fill('other-model');
  await settings.getByLabel('Input $/M').fill('two dollars');
  await settings.getByLabel('Output $/M').fill('8');
  await settings.getByRole('button', { name: 'Save price' }).click();
  expect(await settings.getByTestId('prices-status').textContent()).toBe(
    'Input $/M: type a number of dollars per million tokens, e.g. 2.5.',
  );
  expect(await settings.getByRole('button', { name: 'Remove the price of other-model' }).count()).toBe(0);
  // On a phone the tab fits the dialog: wide tables scroll inside their card, never the dialog sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await settings.getByTestId('cache-view').scrollIntoViewIfNeeded();
  expect(await settings.evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await settings.getByRole('button', { name: 'Close' }).first().click();
  await settings.waitFor({ state: 'detached' });

  // The session menu sums the open session: 2,000 in, 10 out, the same cost.
  await page.getByRole('button', { name: 'Session menu' }).click();
  await page.getByRole('menuitem', { name: 'Usage: 2k in · 10 out · $0.0029' }).click();
  const usage = page.getByRole('dialog', { name: 'Session usage' });
  expect(await usage.getByText('800 (40%)').count()).toBe(1);
  expect(model.failures).toEqual([]);
});
