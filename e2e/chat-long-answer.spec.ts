// A long answer in the built app (issue 14: no long main-thread task while a 200 KB answer streams): its blocks sit
// in groups that skip layout off screen, and when the streamed answer becomes the saved one it shows whole at once
// with its end on screen, the earlier groups holding their height and filling in over the next frames instead of
// being built in one task.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer | undefined;

beforeAll(async () => openApp(served.browser.page, served.server.url));
afterAll(async () => model?.close());

/** 200 paragraphs and a code block every tenth: 13 groups of 16 blocks. */
const ANSWER = Array.from({ length: 200 }, (_, i) =>
  i % 10 === 9
    ? '```ts\n' + `export const value${i} = ${i};\n`.repeat(4) + '```'
    : `Paragraph ${i}: what changed and **why**, with \`code\` and a [link](https://example.com/${i}).`,
).join('\n\n');

describe('a long answer', () => {
  it('becomes the saved answer whole, its end on screen at once and the earlier groups filling in', async () => {
    model = await startModelServer({ script: [{ text: ANSWER, chunkDelayMs: 0 }] });
    const { page } = served.browser;
    await createPrivateWorkspace(page, 'Long answer');
    await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
    // How far the live answer got, and what the saved answer looks like in the first frame it is on screen.
    await page.evaluate(() => {
      const w = window as unknown as {
        liveLast: number;
        firstFrame?: { groups: number; firstEmpty: boolean; firstHeight: number; last: number };
      };
      w.liveLast = -1;
      const log = document.querySelector('[role="log"]')!;
      const lastParagraph = (el: Element | null | undefined) =>
        Math.max(-1, ...[...(el?.textContent ?? '').matchAll(/Paragraph (\d+):/g)].map((m) => Number(m[1])));
      new MutationObserver(() => {
        const live = log.querySelector('.msg-assistant.live .md');
        if (live) w.liveLast = Math.max(w.liveLast, lastParagraph(live.lastElementChild));
        const saved = [...log.querySelectorAll('.msg-assistant:not(.live)')].find((a) => a.querySelector('.md-group'));
        if (!saved || w.firstFrame) return;
        const groups = [...saved.querySelectorAll('.md > .md-group')];
        w.firstFrame = {
          groups: groups.length,
          firstEmpty: groups[0]!.childElementCount === 0,
          firstHeight: groups[0]!.getBoundingClientRect().height,
          last: lastParagraph(groups.at(-1)),
        };
      }).observe(log, { childList: true, subtree: true });
    });
    await sendMessage(page, 'Explain everything.');
    await waitForTurnEnd(page);

    const { liveLast, firstFrame } = await page.evaluate(() => {
      const w = window as unknown as {
        liveLast: number;
        firstFrame: { groups: number; firstEmpty: boolean; firstHeight: number; last: number };
      };
      return { liveLast: w.liveLast, firstFrame: w.firstFrame };
    });
    // The saved answer starts where the live one was (it never shrinks under the reader), its start a placeholder
    // that holds a height until it fills in.
    expect(liveLast).toBeGreaterThan(40);
    expect(firstFrame.last).toBeGreaterThanOrEqual(liveLast);
    expect(firstFrame.firstEmpty).toBe(true);
    expect(firstFrame.firstHeight).toBeGreaterThan(100);

    // Every group fills in, in order and complete.
    const answer = chatLog(page).locator('.msg-assistant').last();
    await answer.getByText('Paragraph 0:', { exact: false }).waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.msg-assistant:not(.live) .md > .md-group')].every((g) => g.childElementCount > 0),
    );
    const text = await answer.locator('.md').evaluate((md) => md.textContent ?? '');
    const order = Array.from({ length: 200 }, (_, i) =>
      i % 10 === 9 ? text.indexOf(`value${i} = ${i}`) : text.indexOf(`Paragraph ${i}:`),
    );
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(model.failures).toEqual([]);
  });
});
