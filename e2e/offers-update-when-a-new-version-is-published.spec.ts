import { appendFile, cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUILT_APP,
  launchBrowser,
  openApp,
  serveBuild,
  waitForServiceWorkerControl,
  type AppBrowser,
  type ServedBuild,
} from './harness';

let server: ServedBuild;
let browser: AppBrowser;
let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), 'i-e2e-build-'));
  await cp(BUILT_APP, copy, { recursive: true });
  server = await serveBuild({ outDir: copy });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.dispose();
  await server?.close();
  await rm(copy, { recursive: true, force: true });
});

it('waits for the person to accept a new version, then reloads into it', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  await waitForServiceWorkerControl(page);

  // Publish a "new version": any byte change of sw.js makes the browser install it next to the running one.
  await appendFile(join(copy, 'sw.js'), '\n// next release\n');
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());

  const prompt = page.getByRole('status').filter({ hasText: 'A new version of i is ready.' });
  await prompt.waitFor();
  // Prompt mode: the new worker waits; the page is still controlled by the old one.
  expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
    true,
  );

  await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload to update' }).click()]);
  await page.getByRole('navigation').waitFor();
  expect(await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting))).toBe(
    false,
  );
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect(await page.getByText('A new version of i is ready.').count()).toBe(0);
});
