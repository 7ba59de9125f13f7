import { expect, it } from 'vitest';
import { createPrivateWorkspace, openApp, waitForServiceWorkerControl, workspaceId, useServedApp } from './harness';

const app = useServedApp();

it('still shows the app and its workspaces after the server stops, served by the service worker', async () => {
  const { page } = app.browser;
  await openApp(page, app.server.url);
  const id = await createPrivateWorkspace(page, 'Offline work');
  await waitForServiceWorkerControl(page);

  await app.server.close();
  const offline = await fetch(app.server.url).then(
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
