// Bindings in the built app (seed 000 §1, issue 20): an i-bridge whose manifest serves the memory module's tools and a
// context_budget hook from a fixture worker is paired; Settings → Agent runs memory and budget on it. The model's
// memory_get is answered by the bridge worker (the built-in is off), and when the worker fails the budget hook the
// turn stops with the worker's error and nothing more is sent to the model.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { chatLog, configureModel, pairBridgeInSettings, sendMessage, waitForTurnEnd } from './agent-steps';
import { startBridgeProcess, type BridgeProcess } from './bridge-process';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';

const served = useServedApp();
const worker = resolve(import.meta.dirname, '../web/core/headless/native/__fixtures__/bound-module-worker.mjs');
const dir = mkdtempSync(join(tmpdir(), 'e2e-bound-'));
let model: ModelServer | undefined;
let bridge: BridgeProcess | undefined;

afterAll(async () => {
  await bridge?.stop();
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

const toolContents = (r: RecordedRequest) =>
  ((r.body?.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

it('runs a bound module on the paired bridge and stops the turn with the binding worker’s error', async () => {
  const manifest = join(dir, 'desktop.json');
  const parameters = { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } };
  writeFileSync(
    manifest,
    JSON.stringify({
      tools: ['memory_get', 'memory_set'].map((name) => ({
        name,
        description: `${name} on the bridge`,
        parameters,
        exec: ['node', worker],
      })),
      hooks: [{ events: ['context_budget'], exec: ['node', worker, '--fail-on', 'PLEASE-FAIL'] }],
    }),
  );
  model = await startModelServer({
    script: [
      { toolCalls: [{ name: 'memory_get', arguments: {} }] },
      { text: 'Memory came from the bridge.' },
      { text: 'never sent' },
    ],
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Bound modules');
  bridge = await startBridgeProcess([new URL(served.server.url).origin], manifest);
  await pairBridgeInSettings(page, bridge);
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-bound' });

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Agent' }).click();
  await settings.getByRole('checkbox', { name: 'Run memory on the paired i-bridge' }).check();
  await settings.getByRole('checkbox', { name: 'Run budget on the paired i-bridge' }).check();
  await settings.getByRole('button', { name: 'Save', exact: true }).click();
  await settings.getByTestId('agent-status').getByText('Saved.').waitFor();
  await settings.getByRole('button', { name: 'Close', exact: true }).first().click();
  await settings.waitFor({ state: 'detached' });

  await sendMessage(page, 'What do you remember?');
  const card = page.getByRole('group', { name: 'Allow memory_get?' });
  await card.waitFor();
  expect(await card.textContent()).toContain('i-bridge');
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await chatLog(page).getByText('Memory came from the bridge.').waitFor();
  await waitForTurnEnd(page);
  expect(toolContents(model.requests[1]!).join('\n')).toContain('WORKER:memory_get');

  await sendMessage(page, 'PLEASE-FAIL this turn');
  await chatLog(page)
    .getByText(/bound worker says no \(context_budget\)/)
    .first()
    .waitFor();
  await waitForTurnEnd(page);
  expect(model.requests).toHaveLength(2);
  expect(model.failures).toEqual([]);
});
