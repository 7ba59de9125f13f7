import { defineConfig } from 'vitest/config';

// Unit tests in Node: pure logic, Node implementations of the ports, real child processes.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['{web,plugin-host,packager,bridge,net,scripts}/**/*.test.ts'],
    exclude: ['**/*.browser.test.ts', 'node_modules/**', 'dist/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
