#!/usr/bin/env node
// `npm test`: every check the project has, in dependency order, stopping at the first failure.
// Rust plugins are built before the unit tests because the plugin-host tests run real packages.
import { spawnSync } from 'node:child_process';

const steps = [
  ['typecheck', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['rust tests', 'npm', ['run', '-s', 'test:rust']],
  ['example plugins', 'npm', ['run', '-s', 'plugins']],
  ['unit tests', 'npm', ['run', '-s', 'test:unit']],
  ['build', 'npm', ['run', '-s', 'build']],
  ['browser unit tests', 'npm', ['run', '-s', 'test:browser']],
  ['end-to-end tests', 'npm', ['run', '-s', 'test:e2e']],
];

const only = process.argv.slice(2);
const started = Date.now();
for (const [name, cmd, args] of steps) {
  if (only.length && !only.includes(name.split(' ')[0])) continue;
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`\n✖ ${name} failed after ${secs}s (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
  console.log(`✔ ${name} (${secs}s)`);
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
