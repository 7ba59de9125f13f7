import { expect, it } from 'vitest';
import { openApp, waitForServiceWorkerControl, useServedApp } from './harness';

const app = useServedApp();

it('is installable: CDP Page.getInstallabilityErrors returns no errors for the served build', async () => {
  const { page, context } = app.browser;
  await openApp(page, app.server.url);
  await waitForServiceWorkerControl(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: unknown[];
  };
  expect(installabilityErrors).toEqual([]);
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
  expect(manifest.url).toMatch(/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
});
