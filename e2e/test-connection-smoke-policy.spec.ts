// Settings → Model → Test connection under the shared smoke policy (web/core/smoke, seed 000 §10): an answer that
// calls a tool is refused with E_SMOKE_TOOL_CALL, and the observed cache statistics go to the app's own
// 'smoke-cache' record, never to a workspace's cache statistics.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './model-server';
import { fillModelForm, openModelSettings } from './agent-steps';
import { openApp, useServedApp } from './harness';

const served = useServedApp();
let model: ModelServer;

beforeAll(async () => {
  model = await startModelServer({
    script: [
      { text: 'ok', usage: { input: 20, output: 1, cached: 6 } },
      { toolCalls: [{ name: 'write', arguments: { path: 'a.txt', content: 'x' } }] },
    ],
  });
});
afterAll(async () => {
  await model?.close();
});

/** The `metrics` records of the app database, as [workspaceId, name, totals]. */
const metrics = () =>
  served.browser.page.evaluate(
    () =>
      new Promise<Array<[string, string, unknown]>>((done, fail) => {
        const open = indexedDB.open('i-harness');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('metrics').objectStore('metrics').getAll();
          all.onsuccess = () => {
            done(
              (all.result as Array<{ workspaceId: string; name: string; stats: { totals: unknown } }>).map((r) => [
                r.workspaceId,
                r.name,
                r.stats.totals,
              ]),
            );
            open.result.close();
          };
          all.onerror = () => fail(all.error);
        };
      }),
  );

it('records the smoke request in its own statistics and refuses a tool call in the answer', async () => {
  const { page } = served.browser;
  await openApp(page, served.server.url);
  const dialog = await openModelSettings(page);
  await fillModelForm(page, {
    protocol: 'openai',
    baseUrl: model.baseUrl('openai'),
    keyName: 'SMOKE_KEY',
    key: 'sk-test',
  });
  const report = dialog.getByTestId('connection-report');

  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await report.getByText(/^Connected in \d+ ms\./).waitFor();
  const body = model.requests[0]!.body!;
  expect(body.max_completion_tokens ?? body.max_tokens).toBe(32);
  expect(body).not.toHaveProperty('tools');
  expect(body).not.toHaveProperty('prompt_cache_key');
  await expect
    .poll(metrics)
    .toEqual([
      [
        'global',
        'smoke-cache',
        expect.objectContaining({ prepared: 1, observed: 1, input_tokens: 20, cache_read_tokens: 6 }),
      ],
    ]);

  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await report.getByText(/^E_SMOKE_TOOL_CALL: /).waitFor();
  expect(await report.getAttribute('role')).toBe('alert');
  // Still one record, and no workspace's cache statistics.
  expect((await metrics()).map(([w, n]) => `${w}/${n}`)).toEqual(['global/smoke-cache']);
});
