import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser, openApp, serveBuild, waitForServiceWorkerControl, type AppBrowser, type ServedBuild } from './harness';

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

it('is installable: CDP Page.getInstallabilityErrors returns no errors for the served build', async () => {
  const { page, context } = browser;
  await openApp(page, server.url);
  await waitForServiceWorkerControl(page);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
  expect(installabilityErrors).toEqual([]);
  const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
  expect(manifest.url).toMatch(/manifest\.webmanifest$/);
  expect(manifest.errors).toEqual([]);
});
