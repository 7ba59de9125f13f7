#!/usr/bin/env node
// Node 20 cannot run TypeScript: bundle the three CLIs (`i`, `i-bridge`, `hplugin`) to plain ESM in dist/cli.
// Runs from `prepare`, so a fresh `npm ci` leaves working bins. Dependencies stay external (node_modules).
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const entries = {
  i: 'web/core/headless/cli.ts',
  'i-bridge': 'bridge/cli.ts',
  hplugin: 'packager/cli.ts',
};

const entryPoints = Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file)));
await build({
  entryPoints,
  outdir: 'dist/cli',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  outExtension: { '.js': '.js' },
  logLevel: 'warning',
});
console.log(
  `built ${Object.keys(entryPoints)
    .map((n) => `dist/cli/${n}.js`)
    .join(', ')}`,
);
