// A paired i-bridge's tools in the agent, in the built app: start `node bin/i-bridge.js` with the example manifest
// and this app's origin, pair in Settings, ask in the chat; the scripted model calls the bridge's `echo`, the
// person allows it, and the bridge's answer is the tool result in the model's next request. Then the bridge
// stops: the next turn warns that its tools are unavailable and still answers.
import { afterAll, expect, it } from 'vitest';
import { chatLog, configureModel, pairBridgeInSettings, sendMessage } from './agent-steps';
import { startBridgeProcess, type BridgeProcess } from './bridge-process';
import { createPrivateWorkspace, openApp, useServedApp } from './harness';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';

const served = useServedApp();
let model: ModelServer | undefined;
let bridge: BridgeProcess | undefined;

afterAll(async () => {
  await bridge?.stop();
  await model?.close();
});

const toolNames = (r: RecordedRequest) =>
  ((r.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const toolContents = (r: RecordedRequest) =>
  ((r.body?.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

it('runs the bridge echo tool after approval and gives its answer to the model; a stopped bridge is a warning, not a failure', async () => {
  model = await startModelServer({
    script: (request, index) => {
      if (index === 0) return { toolCalls: [{ name: 'echo', arguments: { text: 'hello through the bridge' } }] };
      if (index === 1) return { text: 'The bridge echoed it.' };
      return { text: 'Answered without the bridge.' };
    },
  });
  const { page } = served.browser;
  await openApp(page, served.server.url);
  await createPrivateWorkspace(page, 'Agent bridge');
  bridge = await startBridgeProcess([new URL(served.server.url).origin]);
  await pairBridgeInSettings(page, bridge);
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-bridge' });

  await sendMessage(page, 'Echo hello through the bridge');
  const card = page.getByRole('group', { name: 'Allow echo?' });
  await card.waitFor();
  expect(await card.textContent()).toContain('i-bridge');
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await chatLog(page).getByText('The bridge echoed it.').waitFor();

  expect(model.failures).toEqual([]);
  expect(toolNames(model.requests[0]!)).toEqual(
    expect.arrayContaining(['echo', 'workspace_info', 'word_count', 'web_fetch']),
  );
  // The request marks the result as untrusted data on its first line (native path, seed 002).
  expect(toolContents(model.requests[1]!)).toEqual(['untrusted_tool_data: true\nhello through the bridge']);

  // The bridge goes away: the next turn says its tools are unavailable and goes on with the built-ins.
  await bridge.stop();
  await sendMessage(page, 'Anything else?');
  await chatLog(page).getByText('Answered without the bridge.').waitFor();
  expect(await page.getByText(/E_TOOL_SOURCE_FAILED|tools of i-bridge are unavailable/).count()).toBeGreaterThan(0);
  expect(toolNames(model.requests[2]!)).not.toContain('echo');
  expect(toolNames(model.requests[2]!)).toContain('read');
});
