import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPrivateWorkspace, launchBrowser, openApp, serveBuild, waitForServiceWorkerControl, workspaceId, type AppBrowser, type ServedBuild } from './harness';

let server: ServedBuild;
let browser: AppBrowser;

beforeAll(async () => {
  server = await serveBuild();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.dispose();
  await server?.close();
});

it('still shows the app and its workspaces after the server stops, served by the service worker', async () => {
  const { page } = browser;
  await openApp(page, server.url);
  const id = await createPrivateWorkspace(page, 'Offline work');
  await waitForServiceWorkerControl(page);

  await server.close();
  const offline = await fetch(server.url).then(
    () => 'reachable',
    () => 'unreachable',
  );
  expect(offline).toBe('unreachable');

  await page.reload();
  await page.getByRole('navigation').waitFor();
  await page.getByRole('heading', { level: 1, name: 'Offline work' }).waitFor();
  expect(await workspaceId(page)).toBe(id);
  // The lazily loaded settings dialog was precached too.
  await page.getByRole('button', { name: 'Settings' }).click();
  await page.getByRole('dialog', { name: 'Settings' }).waitFor();
});
