// Where the CLI writes. Tests pass a capturing io and call `main` in-process; the bin uses the process streams.
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
};

/** Exit codes: 0 success, 1 the input was refused (or could not be read/written), 2 usage error. */
export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_USAGE = 2;

/** The one line format of every CLI failure: `error E_CODE: message`. */
export function errorLine(io: CliIo, code: string, message: string): void {
  io.stderr(`error ${code}: ${message}\n`);
}
