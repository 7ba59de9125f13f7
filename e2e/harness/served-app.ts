// The set-up most specs share: the build served like `npm start` and one Chromium profile for the whole file,
// both closed after the file's tests. Read `server` and `browser` inside tests (they exist once beforeAll ran).
import { afterAll, beforeAll } from 'vitest';
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
  afterAll(async () => {
    await browser?.dispose();
    await server?.close();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`useServedApp: ${what} is not ready (read it inside a test, not at load time).`);
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
