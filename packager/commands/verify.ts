// `hplugin verify FILE [--json]`: the installer's verdict on a package, for authors and CI.
import { escapeControls, toErrorData, validatePackage, type ValidatedPackage } from '../../plugin-host';
import { parseArgs, UsageError } from '../args';
import { errorLine, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, jsonLine, type CliIo } from '../io';
import { readPackage } from '../read-package';

export const verifyHelp = `Usage: hplugin verify FILE [--json]

Checks a .hplugin.zip exactly as the app's installer does (ZIP structure, manifest, wasm ABI, SHA-256).

  --json      print the summary (or the refusal) as JSON on stdout
  -h, --help  show this help

Exit status: 0 valid, 1 refused (one "error E_CODE: message" line on stderr), 2 usage error.
`;

const spec = {
  '--json': { name: 'json', value: false },
  '--help': { name: 'help', value: false },
  '-h': { name: 'help', value: false },
};

export function summary(pkg: ValidatedPackage) {
  const m = pkg.manifest;
  return {
    ok: true as const,
    id: m.id,
    name: m.name,
    version: m.version,
    sha256: pkg.sha256,
    permissions: m.permissions,
    tools: m.tools.map((t) => ({ name: t.name, description: t.description })),
    size: pkg.size,
    wasm: { bytes: pkg.wasm.length, memory_pages: pkg.wasmInfo.memory },
  };
}

/** The summary for a person: manifest text is the author's, so its control and bidi characters are shown escaped. */
export function formatSummary(pkg: ValidatedPackage): string {
  const s = summary(pkg);
  const show = (text: string) => escapeControls(text, { keepLayout: false });
  return [
    `valid ${show(s.id)} ${show(s.version)} (${show(s.name)})`,
    `  sha256       ${s.sha256}`,
    `  permissions  workspace: ${s.permissions.workspace}, storage: ${s.permissions.storage}`,
    `  tools        ${s.tools.map((t) => show(t.name)).join(', ')}`,
    `  size         ${s.size} bytes (plugin.wasm ${s.wasm.bytes} bytes, memory max ${s.wasm.memory_pages.max} pages)`,
    '',
  ].join('\n');
}

export async function verifyCommand(argv: string[], io: CliIo): Promise<number> {
  let json: boolean;
  let file: string;
  try {
    const { flags, positionals } = parseArgs(argv, spec);
    if (flags.has('help')) {
      io.stdout(verifyHelp);
      return EXIT_OK;
    }
    json = flags.has('json');
    if (positionals.length !== 1)
      throw new UsageError(positionals.length === 0 ? 'missing FILE' : 'verify takes one FILE');
    file = positionals[0]!;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    errorLine(io, 'E_USAGE', `${error.message}. Run "hplugin verify --help".`);
    return EXIT_USAGE;
  }
  let bytes: Uint8Array;
  try {
    bytes = await readPackage(file);
  } catch (error) {
    const fail = toErrorData(error);
    if (json) jsonLine(io, { ok: false, error: fail });
    errorLine(io, fail.code, fail.message);
    return EXIT_REFUSED;
  }
  try {
    const pkg = await validatePackage(bytes);
    if (json) jsonLine(io, summary(pkg), 2);
    else io.stdout(formatSummary(pkg));
    return EXIT_OK;
  } catch (error) {
    const data = toErrorData(error);
    if (json) jsonLine(io, { ok: false, error: data });
    errorLine(io, data.code, data.message);
    return EXIT_REFUSED;
  }
}
