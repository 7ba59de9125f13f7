// The set-up most specs share: the build served like `npm start` and one Chromium profile for the whole file,
// both closed after the file's tests. Read `server` and `browser` inside tests (they exist once beforeAll ran).
// A failed test leaves a screenshot of the page as it was in e2e/.artifacts/failed/ (the path is printed), so a
// failure seen only in CI can be looked at.
import { mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser, type AppBrowser, type LaunchOptions } from './launch-browser';
import { serveBuild, type ServedBuild } from './serve-build';

export interface ServedApp {
  readonly server: ServedBuild;
  readonly browser: AppBrowser;
}

export function useServedApp(launch: LaunchOptions = {}): ServedApp {
  let server: ServedBuild | undefined;
  let browser: AppBrowser | undefined;
  beforeAll(async () => {
    server = await serveBuild();
    browser = await launchBrowser(launch);
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail' || !browser) return;
    const dir = resolve(import.meta.dirname, '../.artifacts/failed');
    const name = `${basename(ctx.task.file?.name ?? 'spec', '.spec.ts')}--${ctx.task.name}`.replace(/[^\w.-]+/g, '-').slice(0, 120);
    const file = resolve(dir, `${name}.png`);
    try {
      mkdirSync(dir, { recursive: true });
      await browser.page.screenshot({ path: file, fullPage: true, timeout: 5000 });
      console.error(`screenshot of the failed test: ${file}`);
    } catch (error) {
      console.error(`no screenshot of the failed test (${(error as Error).message})`);
    }
  });
  afterAll(async () => {
    await browser?.dispose();
    await server?.close();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`useServedApp: ${what} is not ready (read it inside a test, not at load time).`);
    return value;
  };
  return {
    get server() {
      return ready(server, 'the server');
    },
    get browser() {
      return ready(browser, 'the browser');
    },
  };
}
