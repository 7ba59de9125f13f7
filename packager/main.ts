// hplugin: pack, verify and run harness-wasm-v1 plugin packages. `main` is the whole CLI as a function so tests
// run it in-process; cli.ts is the bin entry that calls it with the process streams.
import { quoteUntrusted } from '../plugin-host';
import { packCommand, packHelp } from './commands/pack';
import { runCommand, runHelp } from './commands/run';
import { verifyCommand, verifyHelp } from './commands/verify';
import { errorLine, EXIT_OK, EXIT_USAGE, processIo, type CliIo } from './io';

export const usage = `Usage: hplugin <command> [options]

Commands:
  pack --manifest FILE --wasm FILE --license FILE -o OUT   build a .hplugin.zip (writes the real sha256)
  verify FILE [--json]                                      check a package as the installer does
  run PACKAGE --tool NAME --args JSON --workspace DIR       run one tool invocation in Node

Run "hplugin <command> --help" for a command's options.
`;

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'pack':
      return packCommand(rest, io);
    case 'verify':
      return verifyCommand(rest, io);
    case 'run':
      return runCommand(rest, io);
    case 'help':
      io.stdout(
        ({ pack: packHelp, verify: verifyHelp, run: runHelp } as Record<string, string>)[rest[0] ?? ''] ?? usage,
      );
      return EXIT_OK;
    case '--help':
    case '-h':
      io.stdout(usage);
      return EXIT_OK;
    case undefined:
      io.stderr(usage);
      return EXIT_USAGE;
    default:
      errorLine(io, 'E_USAGE', `unknown command ${quoteUntrusted(command)}. Run "hplugin --help".`);
      return EXIT_USAGE;
  }
}
