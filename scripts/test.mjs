#!/usr/bin/env node
// `npm test`: every check the project has, in dependency order, stopping at the first failure.
// Rust plugins are built before the unit tests because the plugin-host tests run real packages.
// Each step's output is passed through and scanned for the runners' own counts (vitest "Tests N passed",
// cargo "test result: ok. N passed; M failed"), so the run closes on one plain "N passed, N failed" line.
import { spawn } from 'node:child_process';

// Steps in one inner list run side by side (typecheck and lint are each mostly one core; CI has two).
const steps = [
  [
    ['typecheck', 'npm', ['run', '-s', 'typecheck']],
    ['lint', 'npm', ['run', '-s', 'lint']],
  ],
  ['rust tests', 'npm', ['run', '-s', 'test:rust']],
  ['example plugins', 'npm', ['run', '-s', 'plugins']],
  ['unit tests', 'npm', ['run', '-s', 'test:unit']],
  ['build', 'npm', ['run', '-s', 'build']],
  ['browser unit tests', 'npm', ['run', '-s', 'test:browser']],
  ['end-to-end tests', 'npm', ['run', '-s', 'test:e2e']],
];

const totals = { passed: 0, failed: 0, skipped: 0 };
// eslint-disable-next-line no-control-regex
const ansi = /\x1b\[[0-9;]*m/g;

function count(line) {
  const plain = line.replace(ansi, '');
  const vitest = /^\s*Tests\s+(.*)$/.exec(plain);
  if (vitest) {
    for (const [, n, kind] of vitest[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
      if (kind === 'passed') totals.passed += Number(n);
      else if (kind === 'failed') totals.failed += Number(n);
      else totals.skipped += Number(n);
    }
    return;
  }
  const cargo = /^test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/.exec(plain);
  if (cargo) {
    totals.passed += Number(cargo[1]);
    totals.failed += Number(cargo[2]);
    totals.skipped += Number(cargo[3]);
  }
}

function run(cmd, args) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    });
    for (const [stream, out] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      let rest = '';
      stream.on('data', (chunk) => {
        out.write(chunk);
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        lines.forEach(count);
      });
      stream.on('end', () => rest && count(rest));
    }
    child.on('close', (code, signal) => resolve(code ?? signal));
  });
}

const only = process.argv.slice(2);
const started = Date.now();
const runStep = async ([name, cmd, args]) => {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  const status = await run(cmd, args);
  return { name, status, secs: ((Date.now() - t0) / 1000).toFixed(1) };
};
for (const entry of steps) {
  const group = (Array.isArray(entry[0]) ? entry : [entry]).filter(
    ([name]) => !only.length || only.includes(name.split(' ')[0]),
  );
  const results = await Promise.all(group.map(runStep));
  for (const { name, status, secs } of results) {
    if (status !== 0) {
      console.error(`\n✖ ${name} failed after ${secs}s (exit ${status})`);
      console.log(`${totals.passed} passed, ${Math.max(totals.failed, 1)} failed`);
      process.exit(1);
    }
    console.log(`✔ ${name} (${secs}s)`);
  }
}
console.log(`\nAll checks passed in ${((Date.now() - started) / 1000).toFixed(0)}s.`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
