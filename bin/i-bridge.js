#!/usr/bin/env node
// Thin launcher: the CLI is TypeScript bundled to dist/cli by `npm run build:cli` (run automatically by `npm ci`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const target = fileURLToPath(new URL('../dist/cli/i-bridge.js', import.meta.url));
if (!existsSync(target)) {
  console.error(
    'error E_NOT_BUILT: i-bridge is not built yet. Run "npm run build:cli" (or "npm ci") in the i repository.',
  );
  process.exit(2);
}
await import(pathToFileURL(target).href);
