// `i logo [--plain] [--ascii] [--svg]` (seed 000 §10): the brand logo drawn from the one glyph (web/core/brand).
// Colour unless --plain or NO_COLOR; --ascii keeps to ASCII characters; --svg prints the vector file instead.
import { colourAllowed, logoSvg, terminalLogo } from '../brand';
import { escapeControls, HarnessError } from '../contracts';
import { cliErrorData, EXIT_OK, EXIT_USAGE, type CliIo } from './run';

export const LOGO_USAGE = `Usage: i logo [--plain] [--ascii] [--svg]

Prints the logo of i, drawn from the same glyph as the app's icons and public/logo.svg. Exit 0; 2 on usage errors.

Options:
  --plain     No ANSI escape sequences (no colour). NO_COLOR (set and not empty) or TERM=dumb does the same.
  --ascii     ASCII characters only (# for the mark, . for the tile); with --plain every byte is below 0x80.
  --svg       Print the vector logo (SVG, the glyph's path data) instead, e.g. \`i logo --svg > logo.svg\`.
  -h, --help  This help.`;

const usageError = (message: string) => new HarnessError('E_USAGE', `${message} Run \`i logo --help\` for usage.`);

/** The `i logo` command: argv after "logo". */
export async function runLogoCommand(io: CliIo): Promise<number> {
  const flags = { plain: false, ascii: false, svg: false, help: false };
  try {
    for (const arg of io.argv) {
      if (arg === '--plain') flags.plain = true;
      else if (arg === '--ascii') flags.ascii = true;
      else if (arg === '--svg') flags.svg = true;
      else if (arg === '-h' || arg === '--help') flags.help = true;
      else if (arg === '--no-logo') throw usageError('i logo only prints the logo; leave out --no-logo.');
      else throw usageError(arg.startsWith('-') ? `Unknown option ${arg} for logo.` : `Unexpected argument "${arg}".`);
    }
    if (flags.svg && (flags.plain || flags.ascii))
      throw usageError('--svg prints the vector file; give it without --plain and --ascii.');
  } catch (error) {
    const e = cliErrorData(error, 'E_USAGE');
    io.stderr(`error ${e.code}: ${escapeControls(e.message, { keepLayout: false })}\n`);
    return EXIT_USAGE;
  }
  if (flags.help) io.stdout(`${LOGO_USAGE}\n`);
  else if (flags.svg) io.stdout(logoSvg());
  else io.stdout(terminalLogo({ color: !flags.plain && colourAllowed(io.env), ascii: flags.ascii }));
  return EXIT_OK;
}
