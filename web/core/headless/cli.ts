// Entry of the headless `i` command (bundled to dist/cli/i.js by `npm run build:cli`, launched by bin/i.js).
import { readFileSync } from 'node:fs';
import { HarnessError } from '../errors';
import { runCli } from './run';

/** `-p -` reads at most this much; a bigger input is almost surely the wrong file. */
const MAX_STDIN_PROMPT_BYTES = 4 * 1024 * 1024;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new HarnessError('E_USAGE', '-p - reads the prompt from standard input, but it is a terminal. Pipe the prompt in (`echo "..." | i -p -`) or pass the text after -p.');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN_PROMPT_BYTES) {
      throw new HarnessError('E_PROMPT_TOO_LARGE', `The prompt on standard input is larger than ${MAX_STDIN_PROMPT_BYTES} bytes. Put the material in a file in the project folder and ask the model to read it.`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
  readStdin,
});
process.exitCode = code;
