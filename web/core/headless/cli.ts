// Entry of the headless `i` command (bundled to dist/cli/i.js by `npm run build:cli`, launched by bin/i.js).
import { readFileSync } from 'node:fs';
import { runCli } from './run';

function packageVersion(): string {
  try {
    // dist/cli/i.js → the package root.
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // First Ctrl-C stops the turn (the last complete checkpoint stays); a second one exits at once.
  if (++interrupts > 1) process.exit(130);
  controller.abort();
});
process.on('SIGTERM', () => controller.abort());

const code = await runCli({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  signal: controller.signal,
  version: packageVersion(),
});
process.exitCode = code;
