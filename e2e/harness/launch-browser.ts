// One Chromium per test file with its own fresh --user-data-dir, launched as a persistent context so that a
// reload or a browser restart keeps IndexedDB, OPFS and the service worker, as they would for a person.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../chromium';

export interface AppBrowser {
  context: BrowserContext;
  page: Page;
  userDataDir: string;
  /** Closes the browser; the profile stays until `dispose`, so a test can restart on the same profile. */
  close(): Promise<void>;
  dispose(): Promise<void>;
}

export interface LaunchOptions {
  locale?: string;
  colorScheme?: 'light' | 'dark';
  /** Scripts run before the app in every page (e.g. the folder-picker substitute). */
  initScripts?: string[];
  userDataDir?: string;
}

/** Every browser context still open, for the failure screenshots (failure-screenshots.ts). */
export const openContexts = new Set<BrowserContext>();

export async function launchBrowser(options: LaunchOptions = {}): Promise<AppBrowser> {
  const userDataDir = options.userDataDir ?? (await mkdtemp(join(tmpdir(), 'i-e2e-profile-')));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    args: chromiumArgs,
    headless: true,
    locale: options.locale ?? 'en-US',
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: 1280, height: 800 },
    serviceWorkers: 'allow',
  });
  openContexts.add(context);
  context.on('close', () => openContexts.delete(context));
  for (const script of options.initScripts ?? []) await context.addInitScript({ content: script });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    userDataDir,
    close: () => context.close(),
    async dispose() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until a service worker controls the page (after the first install, that takes one reload). */
export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) {
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  }
}
