// A paired i-bridge's tools in the agent, in the built app: start `node bin/i-bridge.js` with the example manifest
// and this app's origin, pair in Settings, ask in the chat; the scripted model calls the bridge's `echo`, the
// person allows it, and the bridge's answer is the tool result in the model's next request. Then the bridge
// stops: the next turn warns that its tools are unavailable and still answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chatLog, configureModel, pairBridgeInSettings, sendMessage } from './agent-steps';
import { createPrivateWorkspace, launchBrowser, openApp, serveBuild, type AppBrowser, type ServedBuild } from './harness';
import { startModelServer, type ModelServer, type RecordedRequest } from './model-server';

const REPO = resolve(import.meta.dirname, '..');
let app: ServedBuild;
let browser: AppBrowser;
let model: ModelServer | undefined;
let child: ChildProcess | undefined;
let base: string | undefined;

beforeAll(async () => {
  app = await serveBuild();
  browser = await launchBrowser();
});
afterAll(async () => {
  await stopBridge();
  if (base) rmSync(base, { recursive: true, force: true });
  await model?.close();
  await browser?.dispose();
  await app?.close();
});

async function stopBridge() {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child!.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

async function startBridge(allowOrigin: string): Promise<{ url: string; code: string }> {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'e2e-agent-bridge-')));
  const root = join(base, 'project');
  mkdirSync(root);
  const env = { PATH: process.env.PATH, I_CONFIG_DIR: join(base, 'config'), I_DATA_DIR: join(base, 'data'), I_CACHE_DIR: join(base, 'cache'), I_RUNTIME_DIR: join(base, 'runtime') };
  const args = [join(REPO, 'bin/i-bridge.js'), '--port', '0', '--root', root, '--manifest', join(REPO, 'bridge/examples/desktop.json'), '--allow-origin', allowOrigin];
  child = spawn(process.execPath, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 15_000;
  while (!/Pairing code: \S+/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`i-bridge did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!, code: /Pairing code: (\S+)/.exec(out)![1]! };
}

const toolNames = (r: RecordedRequest) => ((r.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const toolContents = (r: RecordedRequest) => ((r.body?.messages ?? []) as { role: string; content: string }[]).filter((m) => m.role === 'tool').map((m) => m.content);

it('runs the bridge echo tool after approval and gives its answer to the model; a stopped bridge is a warning, not a failure', async () => {
  model = await startModelServer({
    script: (request, index) => {
      if (index === 0) return { toolCalls: [{ name: 'echo', arguments: { text: 'hello through the bridge' } }] };
      if (index === 1) return { text: 'The bridge echoed it.' };
      return { text: 'Answered without the bridge.' };
    },
  });
  const { page } = browser;
  await openApp(page, app.url);
  await createPrivateWorkspace(page, 'Agent bridge');
  await pairBridgeInSettings(page, await startBridge(new URL(app.url).origin));
  await configureModel(page, { protocol: 'openai', baseUrl: model.baseUrl('openai'), key: 'sk-e2e-bridge' });

  await sendMessage(page, 'Echo hello through the bridge');
  const card = page.getByRole('group', { name: 'Allow echo?' });
  await card.waitFor();
  expect(await card.textContent()).toContain('i-bridge');
  await card.getByRole('button', { name: 'Allow', exact: true }).click();
  await chatLog(page).getByText('The bridge echoed it.').waitFor();

  expect(model.failures).toEqual([]);
  expect(toolNames(model.requests[0]!)).toEqual(expect.arrayContaining(['echo', 'workspace_info', 'word_count', 'web_fetch']));
  expect(toolContents(model.requests[1]!)).toEqual(['hello through the bridge']);

  // The bridge goes away: the next turn says its tools are unavailable and goes on with the built-ins.
  await stopBridge();
  await sendMessage(page, 'Anything else?');
  await chatLog(page).getByText('Answered without the bridge.').waitFor();
  expect(await page.getByText(/E_TOOL_SOURCE_FAILED|tools of i-bridge are unavailable/).count()).toBeGreaterThan(0);
  expect(toolNames(model.requests[2]!)).not.toContain('echo');
  expect(toolNames(model.requests[2]!)).toContain('read');
});
