// `hplugin pack`: the one reliable way to produce a package (seed 004: "采用仓库打包器，不手工改 ZIP 或散列").
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { packPackage, toErrorData } from '../../plugin-host';
import { parseArgs, UsageError } from '../args';
import { errorLine, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, type CliIo } from '../io';
import { formatSummary } from './verify';

export const packHelp = `Usage: hplugin pack --manifest FILE --wasm FILE --license FILE -o OUT

Builds a deterministic .hplugin.zip holding manifest.json, plugin.wasm and LICENSE. The real SHA-256 of the wasm
is written into the manifest (whatever "sha256" held before, or none); the result is checked with the installer's
validator before it is written.

  --manifest FILE  manifest.json (strict JSON, UTF-8)
  --wasm FILE      the wasm32-unknown-unknown module
  --license FILE   the license text
  -o, --out OUT    where to write the package (conventionally NAME.hplugin.zip)
  -h, --help       show this help

Exit status: 0 written, 1 refused (one "error E_CODE: message" line on stderr, nothing written), 2 usage error.
`;

const spec = {
  '--manifest': { name: 'manifest', value: true },
  '--wasm': { name: 'wasm', value: true },
  '--license': { name: 'license', value: true },
  '-o': { name: 'out', value: true },
  '--out': { name: 'out', value: true },
  '--help': { name: 'help', value: false },
  '-h': { name: 'help', value: false },
};

export async function packCommand(argv: string[], io: CliIo): Promise<number> {
  let files: Record<'manifest' | 'wasm' | 'license' | 'out', string>;
  try {
    const { flags, positionals } = parseArgs(argv, spec);
    if (flags.has('help')) {
      io.stdout(packHelp);
      return EXIT_OK;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const need = (name: 'manifest' | 'wasm' | 'license' | 'out', flag: string) => {
      const v = flags.get(name);
      if (typeof v !== 'string') throw new UsageError(`missing ${flag}`);
      return v;
    };
    files = { manifest: need('manifest', '--manifest FILE'), wasm: need('wasm', '--wasm FILE'), license: need('license', '--license FILE'), out: need('out', '-o OUT') };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    errorLine(io, 'E_USAGE', `${error.message}. Run "hplugin pack --help".`);
    return EXIT_USAGE;
  }

  const inputs: Partial<Record<'manifest' | 'wasm' | 'license', Uint8Array>> = {};
  for (const key of ['manifest', 'wasm', 'license'] as const) {
    try {
      inputs[key] = new Uint8Array(await readFile(files[key]));
    } catch (error) {
      errorLine(io, 'E_FILE_READ', `Cannot read ${files[key]} (${(error as NodeJS.ErrnoException).code ?? String(error)}). Check the --${key} path.`);
      return EXIT_REFUSED;
    }
  }

  let result;
  try {
    result = await packPackage({ manifest: inputs.manifest!, wasm: inputs.wasm!, license: inputs.license! });
  } catch (error) {
    const data = toErrorData(error);
    errorLine(io, data.code, data.message);
    return EXIT_REFUSED;
  }

  // Write beside the target and rename, so a failed write never leaves a half package under the final name.
  const temp = `${files.out}.${process.pid}.tmp`;
  try {
    await writeFile(temp, result.bytes);
    await rename(temp, files.out);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    errorLine(io, 'E_FILE_WRITE', `Cannot write ${files.out} (${(error as NodeJS.ErrnoException).code ?? String(error)}). Check the -o path.`);
    return EXIT_REFUSED;
  }
  io.stdout(`wrote ${files.out}\n${formatSummary(result.validated)}`);
  return EXIT_OK;
}
