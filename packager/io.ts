// Where the CLI writes. Tests pass a capturing io and call `main` in-process; the bin uses the process streams.
// Everything hplugin prints may quote text from a package (manifest fields, plugin output and errors): human-readable
// lines go through `escapeControls` and JSON through `stringifyForTerminal`, so no escape sequence from a package
// reaches the terminal (seed 004 plugins are untrusted code).
import { escapeControls, stringifyForTerminal } from '../plugin-host';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** True when stdout is a terminal: `hplugin run` then shows the plugin's output with controls escaped. */
  stdoutIsTerminal?: boolean;
}

export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  get stdoutIsTerminal() {
    return process.stdout.isTTY === true;
  },
};

/** Exit codes: 0 success, 1 the input was refused (or could not be read/written), 2 usage error. */
export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

/**
 * The one line format of every CLI failure: `error E_CODE: message`. The message may quote a package or plugin, so
 * controls (newlines included: a quoted newline must not start a forged second line) are shown escaped.
 */
export function errorLine(io: CliIo, code: string, message: string): void {
  io.stderr(
    `error ${escapeControls(code, { keepLayout: false })}: ${escapeControls(message, { keepLayout: false })}\n`,
  );
}

/** A value as one line of JSON on stdout, exact but without raw control, C1 or bidi characters. */
export function jsonLine(io: CliIo, value: unknown, space?: number): void {
  io.stdout(`${stringifyForTerminal(value, space)}\n`);
}
