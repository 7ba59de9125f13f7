// Settings → Bridge end to end: a real i-bridge (node bin/i-bridge.js) started with --allow-origin set to the
// served app's origin, a temporary --root and the example manifest; pair in Settings with the printed code and
// see its status and tools. A bridge started without this origin gets the unreachable explanation.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrivateWorkspace, launchBrowser, openApp, serveBuild, type AppBrowser, type ServedBuild } from './harness';

const REPO = resolve(import.meta.dirname, '..');
const ARTIFACTS = resolve(import.meta.dirname, '.artifacts');
let server: ServedBuild;
let browser: AppBrowser;
const children: ChildProcess[] = [];
const temps: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await serveBuild();
  browser = await launchBrowser();
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([gone, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  await browser?.dispose();
  await server?.close();
});

async function startBridge(allowOrigin: string[]): Promise<{ url: string; code: string; root: string }> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'e2e-bridge-')));
  temps.push(base);
  const root = join(base, 'project');
  mkdirSync(root);
  const env = { PATH: process.env.PATH, I_CONFIG_DIR: join(base, 'config'), I_DATA_DIR: join(base, 'data'), I_CACHE_DIR: join(base, 'cache'), I_RUNTIME_DIR: join(base, 'runtime') };
  const args = [join(REPO, 'bin/i-bridge.js'), '--port', '0', '--root', root, '--manifest', join(REPO, 'bridge/examples/desktop.json'), ...allowOrigin.flatMap((o) => ['--allow-origin', o])];
  const child = spawn(process.execPath, args, { env, cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const deadline = Date.now() + 15_000;
  while (!/Pairing code: \S+/.test(out)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`i-bridge did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1]!, code: /Pairing code: (\S+)/.exec(out)![1]!, root };
}

it('pairs with a real i-bridge using the printed code and lists its status and tools; explains a bridge that does not allow this origin', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await createPrivateWorkspace(page, 'Bridge check');
  const origin = new URL(server.url).origin;

  await page.getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Bridge' }).click();
  await settings.getByText(`--allow-origin ${origin}`).first().waitFor();

  // Not started with this origin: the browser blocks the answer; the message names --allow-origin and LNA.
  const foreign = await startBridge(['https://elsewhere.example']);
  await settings.getByLabel('Bridge address').fill(foreign.url);
  await settings.getByLabel('Pairing code').fill(foreign.code);
  await settings.getByRole('button', { name: 'Pair' }).click();
  const pairError = settings.getByTestId('bridge-pair-error');
  await pairError.filter({ hasText: 'E_BRIDGE_UNREACHABLE' }).or(pairError.filter({ hasText: 'did not answer' })).waitFor();
  expect(await pairError.textContent()).toContain(`--allow-origin ${origin}`);
  expect(await pairError.textContent()).toContain('Local Network Access');

  const bridge = await startBridge([origin]);
  await settings.getByLabel('Bridge address').fill(bridge.url);
  await settings.getByLabel('Pairing code').fill('AAAA-AAAA');
  await settings.getByRole('button', { name: 'Pair' }).click();
  await pairError.filter({ hasText: /code/i }).waitFor();
  await settings.getByLabel('Pairing code').fill(bridge.code);
  await settings.getByRole('button', { name: 'Pair' }).click();
  await settings.getByTestId('bridge-paired').waitFor();
  expect(await settings.getByTestId('bridge-paired').textContent()).toContain(bridge.url);
  const tools = settings.getByRole('list', { name: 'Tools offered' });
  for (const name of ['echo', 'workspace_info', 'word_count']) await tools.getByText(name, { exact: true }).waitFor();
  expect(await settings.getByLabel('Tool calls run in').inputValue()).toBe(bridge.root);
  expect(await settings.textContent()).toContain('before_turn');
  await page.screenshot({ path: resolve(ARTIFACTS, 'bridge-settings.png') });

  // The token is never listed: it lives under an internal credentials entry that no model config can name.
  await settings.getByRole('tab', { name: 'Keys' }).click();
  await settings.getByRole('tabpanel').waitFor();
  const keysText = (await settings.getByRole('tabpanel').textContent()) ?? '';
  expect(keysText).not.toMatch(/bridge/i);
});
