// A session whose IndexedDB log is damaged (one stored entry no longer an entry): after a reload the chat shows
// E_SESSION_CORRUPT with "Recover what is intact", which copies every message before the damage — cut back so no
// tool call is kept without its result — into a new "<title> (recovered)" session and opens it. The damaged
// session is left exactly as it was, and the recovered one goes on like any other.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startModelServer, type ModelServer } from './model-server';
import { chatLog, configureModel, sendMessage, waitForTurnEnd } from './agent-steps';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer({
    script: [
      { text: 'First answer.' },
      { text: 'Looking.', toolCalls: [{ name: 'read', arguments: { path: 'missing.md' } }] },
      { text: 'Second answer.' },
      {
        expect: (r) => {
          // The recovered history: both prompts and the first answer, not the batch whose result was damaged.
          const text = r.rawBody;
          if (!text.includes('Hello one') || !text.includes('First answer.') || !text.includes('Hello two'))
            throw new Error('recovered history lost');
          if (text.includes('Looking.') || text.includes('Second answer.'))
            throw new Error('history past the damage was sent');
        },
        text: 'Still here.',
      },
    ],
  });
});
afterAll(async () => {
  await model?.close();
});

/** The session's stored entries, read (and optionally damaged) with the raw IndexedDB API inside the page. */
function entriesOf(page: Page, sessionId: string, damageToolResult = false) {
  return page.evaluate(
    async ({ sid, damage }) => {
      const request = <T>(r: IDBRequest<T>) =>
        new Promise<T>((ok, ko) => ((r.onsuccess = () => ok(r.result)), (r.onerror = () => ko(r.error))));
      const db = await request(indexedDB.open('i-harness'));
      const tx = db.transaction(['sessions', 'session_entries'], 'readwrite');
      const rows = (await request(
        tx.objectStore('session_entries').getAll(IDBKeyRange.bound([sid, 0], [sid, Infinity])),
      )) as { seq: number; entry: { kind: string; message?: { role: string } } }[];
      const record = (await request(tx.objectStore('sessions').get(sid))) as
        { checkpointSeq: number; title: string } | undefined;
      const victim = rows.find((r) => r.entry.message?.role === 'tool');
      if (damage && victim)
        await request(tx.objectStore('session_entries').put({ ...victim, entry: { kind: 'bogus' } }));
      await new Promise((ok) => (tx.oncomplete = ok));
      db.close();
      return {
        rows: JSON.stringify(rows),
        count: rows.length,
        victim: victim?.seq ?? -1,
        record: JSON.stringify(record),
      };
    },
    { sid: sessionId, damage: damageToolResult },
  );
}

it('recovers the intact part of a damaged session into a new session and leaves the damaged one unchanged', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Recover');
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e' });
  await sendMessage(page, 'Hello one');
  await chatLog(page).getByText('First answer.').first().waitFor();
  await waitForTurnEnd(page);
  await sendMessage(page, 'Hello two');
  // While the answer is being saved it can show twice for a moment (live and saved); once saved, once.
  await chatLog(page).getByText('Second answer.').first().waitFor();
  await waitForTurnEnd(page);
  expect(await chatLog(page).getByText('Second answer.').count()).toBe(1);
  const damagedId = new URL(page.url()).hash.match(/[#&]s=([^&]+)/)?.[1];
  expect(damagedId).toBeTruthy();

  // Damage the stored tool result (the read's answer), then reload.
  const before = await entriesOf(page, damagedId!, true);
  expect(before.victim).toBeGreaterThan(0);
  const damagedState = await entriesOf(page, damagedId!);
  await page.reload();

  const alert = page.getByTestId('damaged-session');
  await alert.waitFor();
  const alertText = (await alert.textContent()) ?? '';
  expect(alertText).toContain('This session cannot be opened: E_SESSION_CORRUPT');
  expect(alertText).toContain(`entry ${before.victim} is not a session entry`);
  expect(alertText).toContain('nothing was changed or removed');
  expect(await page.getByLabel('Message', { exact: true }).isDisabled()).toBe(true);
  await alert.getByRole('button', { name: 'Recover what is intact' }).click();

  const notice = page.getByTestId('recovered-session');
  await notice.waitFor();
  const noticeText = (await notice.textContent()) ?? '';
  expect(noticeText).toMatch(/messages kept: \d+, everything before the damage/);
  expect(noticeText).toContain('The damaged session is unchanged; you can still open it and delete it.');
  // The assistant's read call lost its result: it is left out, never kept half.
  expect(noticeText).toContain('Left out: 1 later message(s) of a tool call whose results were lost.');
  await page.getByRole('heading', { name: 'Hello one (recovered)' }).waitFor();
  const recoveredId = new URL(page.url()).hash.match(/[#&]s=([^&]+)/)?.[1];
  expect(recoveredId).toBeTruthy();
  expect(recoveredId).not.toBe(damagedId);
  const log = chatLog(page);
  await log.locator('.msg-user').getByText('Hello one', { exact: true }).waitFor();
  await log.getByText('First answer.').waitFor();
  await log.locator('.msg-user').getByText('Hello two', { exact: true }).waitFor();
  expect(await log.getByText('Looking.').count()).toBe(0);
  expect(await log.getByText('Second answer.').count()).toBe(0);

  // The damaged session's record and entries are exactly as they were.
  expect(await entriesOf(page, damagedId!)).toEqual(damagedState);
  await page.getByRole('navigation').getByText('Hello one', { exact: true }).waitFor();

  // The recovered session goes on like any other, and reopens after a reload.
  await sendMessage(page, 'Are you still there?');
  await log.getByText('Still here.').waitFor();
  await waitForTurnEnd(page);
  expect(model.failures).toEqual([]);
  await page.reload();
  await chatLog(page).getByText('Still here.').waitFor();
  expect(await page.getByTestId('damaged-session').count()).toBe(0);
});
