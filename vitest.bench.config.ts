import { defineConfig } from 'vitest/config';

// `npm run bench`: *.bench.ts files in Node, one at a time so they do not compete for the two cores.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['{web,plugin-host,packager,bridge,net,scripts,e2e}/**/*.bench.ts'],
    fileParallelism: false,
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    reporters: ['default'],
  },
});
