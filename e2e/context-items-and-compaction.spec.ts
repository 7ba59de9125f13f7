// The conversation shows what the harness put in the model's view for what it is (built app, scripted model server):
// AGENTS.md is a collapsed "Project instructions" item, never a user bubble; a long tool result is readable whole
// in its card although the model saw a preview and a reference; an answer's usage opens under it; and a session
// that crosses the compaction trigger shows a divider that opens to the summary and the original messages.
import { afterAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';
import { chatLog, fillModelForm, openModelSettings, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;
afterAll(async () => model?.close());

const AGENTS = 'Use tabs for indentation.\nRun the checks before committing.';
/** ~90 KB over 1,500 numbered lines: two pages of the card, far over the model's 4 KB view. */
const BIG = Array.from(
  { length: 1500 },
  (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'lorem ipsum '.repeat(4)}`,
).join('\n');
const FIRST_PROMPT = 'Read big.txt for me.';
const SUMMARY = 'Goal: check the compaction divider.\nFiles touched: big.txt (read).';
/** Long prompts push the history over the trigger of the small window set below. */
const filler = (n: number) => `Note ${n}: ${'the quick brown fox jumps over the lazy dog. '.repeat(110)}`;

const lastUserText = (r: RecordedRequest) => {
  const messages = (r.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.filter((m) => m.role === 'user').at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
};

it('shows AGENTS.md as a context item, a long tool result whole, usage under an answer, and a compaction as a divider', async () => {
  let answers = 0;
  let refuseSummary = false;
  model = await startModelServer({
    script: (request, index) => {
      // Usage as a provider would report it (one token per byte of the request), so the budget's anchor grows with
      // the history as it would for real (the server's default of 10 tokens would hold it down).
      const usage = { input: request.rawBody.length, output: 5 };
      // The summary request ends with the compaction prompt; every other request is a turn of the conversation.
      if (lastUserText(request).includes('Summarise the conversation above'))
        return refuseSummary
          ? { error: { status: 400, message: 'summaries are off today' } }
          : { text: SUMMARY, usage };
      if (index === 0) return { toolCalls: [{ name: 'read', arguments: { path: 'big.txt' } }], usage };
      answers++;
      return { text: `Answer ${answers}.`, usage };
    },
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const wid = await createPrivateWorkspace(page, 'Context items');
  await page.evaluate(
    async ({ id, files }) => {
      const root = await (
        await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces')
      ).getDirectoryHandle(id);
      for (const [name, text] of Object.entries(files)) {
        const w = await (await root.getFileHandle(name, { create: true })).createWritable();
        await w.write(text);
        await w.close();
      }
    },
    { id: wid, files: { 'AGENTS.md': AGENTS, 'big.txt': BIG } },
  );
  // A small context window, so a few long prompts cross the compaction trigger.
  const settings = await openModelSettings(page);
  await fillModelForm(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-items' });
  await settings.getByLabel('Context window (tokens)').fill('40000');
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await settings.getByTestId('model-status').getByText('Saved.').waitFor();
  await settings.getByRole('button', { name: 'Close' }).first().click();
  await settings.waitFor({ state: 'detached' });

  await sendMessage(page, FIRST_PROMPT);
  await chatLog(page).getByText('Answer 1.').waitFor();
  await waitForTurnEnd(page);
  const log = chatLog(page);

  // AGENTS.md: a labelled item, collapsed, that opens to the file; no bubble of the person holds it.
  const instructions = log.getByRole('button', { name: /Project instructions · AGENTS\.md/ });
  expect(await instructions.getAttribute('aria-expanded')).toBe('false');
  expect(await log.getByText('Use tabs for indentation.').count()).toBe(0);
  await instructions.click();
  expect(await log.locator('.ctx-item .ctx-text').textContent()).toBe(AGENTS);
  expect(await log.locator('.msg-user').count()).toBe(1);
  expect(await log.locator('.msg-user').textContent()).toContain(FIRST_PROMPT);

  // The model saw a preview and a reference; the card holds the whole file, a page at a time.
  const sent = (model.requests[1]!.body as { messages: Array<{ role: string; content: string }> }).messages.find(
    (m) => m.role === 'tool',
  )!.content;
  expect(sent).toContain('[result truncated:');
  expect(sent.length).toBeLessThan(5000);
  const card = log.locator('[data-tool="read"]');
  await card.locator('summary').click();
  await card.getByText(/The model saw a 512-byte preview of [\d,]+ bytes and a reference/).waitFor();
  const output = card.locator('.tool-output');
  expect(await output.textContent()).not.toContain('line 1500');
  await card.getByRole('button', { name: /Show more/ }).click();
  await card.getByRole('button', { name: /Show more/ }).waitFor({ state: 'detached' });
  const whole = (await output.textContent()) ?? '';
  expect(whole).toContain('line 0001');
  expect(whole).toContain('line 1500');
  expect(whole.length).toBeGreaterThanOrEqual(BIG.length);

  // Usage of the turn (two model calls) under its answer: reported figures, no price set → "—".
  const answer = log.locator('.msg-assistant').last();
  await answer.getByRole('button', { name: 'Usage of this answer' }).click();
  const usage = answer.getByRole('group', { name: 'Usage of this answer' });
  const input = (model.requests[0]!.rawBody.length + model.requests[1]!.rawBody.length).toLocaleString('en-US');
  expect(await usage.locator('.msg-usage-line').first().textContent()).toMatch(
    new RegExp(`in ${input}.*out 10.*cost —`),
  );
  expect(await usage.locator('.msg-usage-line.minor').count()).toBe(2);

  // Long prompts until a turn compacts the history.
  const divider = log.locator('section.compaction');
  const meterTokens = async () => Number(await page.locator('.context-meter').getAttribute('data-tokens'));
  let before = 0;
  for (let n = 1; n <= 8 && (await divider.count()) === 0; n++) {
    before = await meterTokens();
    await sendMessage(page, filler(n));
    await waitForTurnEnd(page);
  }
  const toggle = divider.getByRole('button', {
    name: /Earlier conversation compacted: \d+ messages → summary \([\d,]+ → [\d,]+ tokens\)/,
  });
  await toggle.waitFor();
  // The meter drops: the next request is smaller than the one before the compacting turn, new prompt and answer included.
  await expect.poll(meterTokens).toBeLessThan(before);
  expect(before).toBeGreaterThan(0);
  // Never a bubble of the person: no user message holds the summary.
  expect(await log.locator('.msg-user', { hasText: 'Summary of the earlier conversation' }).count()).toBe(0);
  expect(await log.locator('.msg-user', { hasText: 'check the compaction divider' }).count()).toBe(0);
  await toggle.click();
  await divider
    .locator('.compaction-summary')
    .getByText('Goal: check the compaction divider.', { exact: false })
    .waitFor();
  await divider.getByRole('button', { name: 'Show original messages' }).click();
  const originals = divider.getByRole('group', { name: /Original messages/ });
  await originals.getByText(FIRST_PROMPT).waitFor();
  // Read-only: the originals carry no message actions.
  expect(await originals.getByRole('group', { name: 'Message actions' }).count()).toBe(0);
  await divider.getByRole('button', { name: 'Hide original messages' }).click();
  await originals.waitFor({ state: 'detached' });

  // A compaction asked for that fails says so with its code, and that nothing changed; it has no prompt to retry.
  refuseSummary = true;
  const messagesBefore = await log.locator('.msg').count();
  await sendMessage(page, '/compact keep the file list');
  const failure = log.getByRole('alert').filter({ hasText: /Compaction failed: E_[A-Z0-9_]+/ });
  await failure.waitFor();
  expect(await failure.textContent()).toContain('Nothing changed: the conversation is as it was.');
  expect(await failure.getByRole('button').count()).toBe(0);
  await waitForTurnEnd(page);
  expect(await log.locator('section.compaction').count()).toBe(1);
  expect(await log.locator('.msg').count()).toBe(messagesBefore);
  expect(model.failures).toEqual([]);
});
