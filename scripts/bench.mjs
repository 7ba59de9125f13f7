#!/usr/bin/env node
// `npm run bench`: builds what the benchmarks measure, then runs every *.bench.ts (Node) file.
import { spawnSync } from 'node:child_process';

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npm', ['run', '-s', 'build']);
run('npx', ['vitest', 'run', '-c', 'vitest.bench.config.ts', '--passWithNoTests', ...process.argv.slice(2)]);
