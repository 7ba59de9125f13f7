import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { chromiumPath, chromiumArgs } from './e2e/chromium.ts';

// Browser unit tests (*.browser.test.ts) in Debian's Chromium: Workers, WebAssembly, OPFS, IndexedDB.
export default defineConfig({
  // Pre-bundle what browser tests import lazily, or Vite reloads the page mid-run.
  optimizeDeps: { include: ['wabt', '@noble/hashes/sha2.js', '@wllama/wllama'] },
  test: {
    include: ['{web,plugin-host}/**/*.browser.test.ts'],
    testTimeout: 30_000,
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: chromiumArgs } }),
      instances: [{ browser: 'chromium' }],
    },
  },
});
