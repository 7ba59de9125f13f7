// Messages in the built app against the scripted model server: a highlighted code block with "Copy code" (the
// clipboard gets the code), a long block collapsed behind "Show all N lines", "Copy" on a message; a tool card that
// is one line until opened and keeps the approved diff; a deny with a reason that reaches the model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createFileThroughUi, createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;

beforeAll(async () => {
  await served.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: served.server.url });
  await openApp(served.browser.page, served.server.url);
});
afterAll(async () => model?.close());

const SHORT = 'const answer: number = 42;\nconsole.log(answer);';
const LONG = Array.from({ length: 40 }, (_, i) => `print("line ${i + 1}")`).join('\n');
const ANSWER = `Here is the code:\n\n\`\`\`ts\n${SHORT}\n\`\`\`\n\nAnd a long one:\n\n\`\`\`python\n${LONG}\n\`\`\`\n\nThat is all.`;

/** The tool result text the model received in the request after `index` (Chat Completions shape). */
function toolResults(server: ModelServer, index: number): string[] {
  const messages = (server.requests[index]!.body as { messages: { role: string; content: string }[] }).messages;
  return messages.filter((m) => m.role === 'tool').map((m) => m.content);
}

describe('messages', () => {
  it('shows code highlighted with Copy code, collapses a long block, and copies a message’s Markdown', async () => {
    model = await startModelServer({ script: [{ text: ANSWER }] });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Messages code');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await sendMessage(page, 'Show me some code.');
    await waitForTurnEnd(page);

    const answer = chatLog(page).locator('.msg-assistant').last();
    const block = answer.locator('.code-block').first();
    // Highlighted once its coloured code replaces the plain text (blocks may finish in any order).
    await block.locator('code.hl').waitFor();
    expect(await block.locator('.code-lang').textContent()).toBe('ts');
    // Coloured by the highlighter under the strict CSP: the keyword is not in the text colour of the block.
    const colours = await block.locator('code').evaluate((code) => {
      const keyword = [...code.querySelectorAll('span')].find((s) => s.textContent === 'const')!;
      return { keyword: getComputedStyle(keyword).color, text: getComputedStyle(code).color };
    });
    expect(colours.keyword).not.toBe(colours.text);
    expect(await block.locator('code').textContent()).toBe(SHORT);

    await block.getByRole('button', { name: 'Copy code' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(SHORT);

    const long = answer.locator('.code-block').nth(1);
    const more = long.getByRole('button', { name: 'Show all 40 lines' });
    await more.waitFor();
    const pre = long.locator('pre');
    const collapsed = await pre.evaluate((el) => ({ shown: el.clientHeight, full: el.scrollHeight }));
    expect(collapsed.shown).toBeLessThan(collapsed.full);
    await more.click();
    expect(await pre.evaluate((el) => el.clientHeight >= el.scrollHeight)).toBe(true);
    await long.getByRole('button', { name: 'Show less' }).waitFor();

    await answer.hover();
    await answer.getByRole('button', { name: 'Copy', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(ANSWER);
    // The model is named once, in the composer: an answer from that same model does not repeat it.
    expect(await answer.locator('.msg-model').count()).toBe(0);
    expect(await page.getByRole('combobox', { name: 'Model' }).textContent()).toContain('scripted-model');
    expect(model.failures).toEqual([]);
  });

  it('keeps a tool card to one line, keeps the approved diff in it, and sends a deny reason to the model', async () => {
    await model?.close();
    model = await startModelServer({
      script: [
        {
          text: 'Changing the colour.',
          toolCalls: [
            { name: 'edit', arguments: { path: 'notes.txt', old_string: 'colour: red', new_string: 'colour: blue' } },
          ],
        },
        { toolCalls: [{ name: 'write', arguments: { path: 'extra.txt', content: 'more\n' } }] },
        { text: 'Understood, no extra file.' },
      ],
    });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Messages tools');
    await createFileThroughUi(page, 'notes.txt', 'colour: red\nsize: large\n');
    await page.keyboard.press('Escape');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await sendMessage(page, 'Make it blue.');

    const editCard = page.getByRole('group', { name: 'Allow edit?' });
    await editCard.getByRole('button', { name: 'Allow', exact: true }).click();

    const denyCard = page.getByRole('group', { name: 'Allow write?' });
    await denyCard
      .getByRole('textbox', { name: 'Tell the agent why' })
      .fill('Keep everything in notes.txt, no new files.');
    await denyCard.getByRole('button', { name: 'Deny', exact: true }).click();
    await chatLog(page).getByText('Understood, no extra file.').first().waitFor();
    await waitForTurnEnd(page);

    // The model got the person's reason in the write's tool error.
    expect(model.requests).toHaveLength(3);
    const refusal = toolResults(model, 2).at(-1)!;
    expect(refusal).toContain('E_TOOL_REJECTED');
    expect(refusal).toContain('"Keep everything in notes.txt, no new files."');

    // The edit's card: one line while closed (tool, target, status), its diff inside once opened.
    const card = chatLog(page).locator('[data-tool="edit"]');
    const summary = card.locator('summary');
    const line = await summary.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      lineHeight: parseFloat(getComputedStyle(el).lineHeight) || 20,
    }));
    expect(line.height).toBeLessThan(line.lineHeight * 2 + 14);
    expect(await summary.textContent()).toContain('notes.txt');
    expect(await summary.textContent()).toContain('done');
    expect(await card.getByLabel('Changes').isVisible()).toBe(false);
    await summary.click();
    const diff = (await card.getByLabel('Changes').textContent()) ?? '';
    expect(diff).toContain('-colour: red');
    expect(diff).toContain('+colour: blue');
    expect(
      await card
        .locator('.diff-add')
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    ).not.toBe(
      await card
        .locator('.diff-hunk')
        .first()
        .evaluate((el) => getComputedStyle(el).color),
    );
    // The refused write reads as declined, not as a failure in red.
    expect(await chatLog(page).locator('[data-tool="write"]').getAttribute('data-state')).toBe('refused');
    // A declined call made no changes: its card shows none.
    await chatLog(page).locator('[data-tool="write"] summary').click();
    expect(await chatLog(page).locator('[data-tool="write"]').getByLabel('Changes').count()).toBe(0);
    expect(model.failures).toEqual([]);
  });

  it('streams an answer without re-rendering its finished blocks', async () => {
    await model?.close();
    const text = `First paragraph of the answer.\n\n\`\`\`js\nconst a = 1;\nconst b = 2;\n\`\`\`\n\nThird paragraph ${'grows '.repeat(150)}\n\nEnd.`;
    model = await startModelServer({ script: [{ text, chunkDelayMs: 15 }] });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Messages streaming');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await sendMessage(page, 'Stream something.');

    const live = chatLog(page).locator('article.live');
    // Once the code block has started, the first paragraph is finished: watch its element for any change.
    await live.locator('.code-block').waitFor();
    await live.evaluate((article) => {
      const first = article.querySelector('.md-block')!;
      const w = window as unknown as { firstBlock: Element; changes: number };
      w.firstBlock = first;
      w.changes = 0;
      new MutationObserver((records) => (w.changes += records.length)).observe(first, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    const codeBefore = await live.locator('.code-block').elementHandle();
    await live.getByText('Third paragraph', { exact: false }).waitFor();
    const seen = await live.evaluate((article, code) => {
      const w = window as unknown as { firstBlock: Element; changes: number };
      return {
        same: article.querySelector('.md-block') === w.firstBlock,
        changes: w.changes,
        codeSame: article.querySelector('.code-block') === code,
      };
    }, codeBefore);
    expect(seen).toEqual({ same: true, changes: 0, codeSame: true });
    await waitForTurnEnd(page);
    expect(
      (await chatLog(page).locator('.msg-assistant').last().locator('.md-block').first().textContent())?.trim(),
    ).toBe('First paragraph of the answer.');
  });

  it('regenerates an answer and edits a message, each starting the turn again from that point', async () => {
    await model?.close();
    model = await startModelServer({
      script: [{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Answer to the edit.' }],
    });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Messages rerun');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    await sendMessage(page, 'Original question.');
    await waitForTurnEnd(page);

    const answer = chatLog(page).locator('.msg-assistant').last();
    await answer.hover();
    await answer.getByRole('button', { name: 'Regenerate' }).click();
    await chatLog(page).getByText('Second answer.').first().waitFor();
    await waitForTurnEnd(page);
    const lastUser = (i: number) =>
      (model!.requests[i]!.body as { messages: { role: string; content: unknown }[] }).messages
        .filter((m) => m.role === 'user')
        .at(-1)!.content;
    expect(lastUser(1)).toBe('Original question.');
    expect(await chatLog(page).getByText('First answer.').count()).toBe(0);

    const question = chatLog(page).locator('.msg-user').last();
    await question.hover();
    await question.getByRole('button', { name: 'Edit' }).click();
    const editor = chatLog(page).getByRole('textbox', { name: 'Edit your message' });
    await editor.fill('Edited question.');
    await chatLog(page).getByRole('button', { name: 'Save & send' }).click();
    await chatLog(page).getByText('Answer to the edit.').first().waitFor();
    await waitForTurnEnd(page);
    expect(lastUser(2)).toBe('Edited question.');
    expect(model.failures).toEqual([]);
  });
});
