// Entry of the headless `i` command (bundled to dist/cli/i.js by `npm run build:cli`, launched by bin/i.js).
import { readFileSync } from 'node:fs';
import { HarnessError } from '../contracts';
import { runCacheReport } from './cache-report';
import { runPathsCommand } from './paths-command';
import { runLogoCommand } from './logo-command';
import { runSmokeCommand } from './smoke-command';
import { runCli } from './run';
import { hasProviderAction, askOnTerminal, runProviderAction } from './provider-action';

/** `-p -` reads at most this much; a bigger input is almost surely the wrong file. */
const MAX_STDIN_PROMPT_BYTES = 4 * 1024 * 1024;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new HarnessError(
      'E_USAGE',
      '-p - reads the prompt from standard input, but it is a terminal. Pipe the prompt in (`echo "..." | i -p -`) or pass the text after -p.',
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_STDIN_PROMPT_BYTES) {
      throw new HarnessError(
        'E_PROMPT_TOO_LARGE',
        `The prompt on standard input is larger than ${MAX_STDIN_PROMPT_BYTES} bytes. Put the material in a file in the project folder and ask the model to read it.`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function packageVersion(): string {
  try {
    // dist/cli/i.js → the package root.
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
      .version;
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

// The reader of stdout went away (`i --json ... | head -1`, a closed pipe): Node would crash on the unhandled
// EPIPE with the turn half done and nothing saved. Stop the turn like Ctrl-C instead, so the session keeps its
// last checkpoint, and say so on stderr.
// stderr may be the same closed pipe (`2>&1 | head -1`): then nothing more is written there either.
let stdoutClosed = false;
let stderrClosed = false;
const writeStderr = (text: string) => {
  if (!stderrClosed) process.stderr.write(text);
};
process.stderr.on('error', () => {
  stderrClosed = true;
  controller.abort();
});
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (stdoutClosed) return;
  stdoutClosed = true;
  writeStderr(
    `error E_STDOUT_CLOSED: standard output was closed (${error.code ?? error.message}), so i stopped the turn; a named session keeps its last checkpoint. Let the reader consume the whole output.\n`,
  );
  controller.abort();
});

const io: Parameters<typeof runCli>[0] = {
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  stdout: (t) => {
    if (!stdoutClosed) process.stdout.write(t);
  },
  stderr: writeStderr,
  signal: controller.signal,
  version: packageVersion(),
  readStdin,
};
// `i cache-report ...` is a command of its own (seed 000 §8): it reads statistics and runs no turn.
const code =
  io.argv[0] === 'cache-report'
    ? await runCacheReport({ ...io, argv: io.argv.slice(1) })
    : io.argv[0] === 'paths'
      ? await runPathsCommand({ ...io, argv: io.argv.slice(1) }) // seed 000 §3: folders and workspace id
      : io.argv[0] === 'smoke'
        ? await runSmokeCommand({ ...io, argv: io.argv.slice(1), isTTY: process.stdout.isTTY === true }) // seed 000 §10
        : io.argv[0] === 'logo'
          ? await runLogoCommand({ ...io, argv: io.argv.slice(1) }) // seed 000 §10: the brand logo
          : hasProviderAction(io.argv)
            ? await runProviderAction({ ...io, confirm: process.stdin.isTTY ? askOnTerminal : null }) // seed 003: the management channel
            : await runCli(io);
process.exitCode = code;
