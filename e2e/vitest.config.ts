import { defineConfig } from 'vitest/config';

// End-to-end tests: the production build (dist/app) served like `npm start`, driven in Chromium by playwright-core.
export default defineConfig({
  test: {
    environment: 'node',
    root: '.',
    include: ['e2e/**/*.spec.ts'],
    setupFiles: ['e2e/harness/failure-screenshots.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
