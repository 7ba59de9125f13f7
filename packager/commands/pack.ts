// `hplugin pack`: the one reliable way to produce a package (seed 004: "采用仓库打包器，不手工改 ZIP 或散列").
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { PACKAGE_LIMITS, packPackage, toErrorData } from '../../plugin-host';
import { parseArgs, UsageError } from '../args';
import { readProblem, writeProblem } from '../file-errors';
import { errorLine, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, type CliIo } from '../io';
import { formatSummary } from './verify';

export const packHelp = `Usage: hplugin pack --manifest FILE --wasm FILE --license FILE -o OUT

Builds a deterministic .hplugin.zip holding manifest.json, plugin.wasm and LICENSE. The real SHA-256 of the wasm
is written into the manifest (whatever "sha256" held before, or none); the result is checked with the installer's
validator before it is written.

  --manifest FILE  manifest.json (strict JSON, UTF-8)
  --wasm FILE      the wasm32-unknown-unknown module
  --license FILE   the license text
  -o, --out OUT    where to write the package (conventionally NAME.hplugin.zip; the folder must exist)
  -h, --help       show this help

Example, in the plugin's crate after "cargo build --release --target wasm32-unknown-unknown":
  hplugin pack --manifest manifest.json --wasm target/wasm32-unknown-unknown/release/word_count.wasm \
    --license LICENSE -o word-count.hplugin.zip

Exit status: 0 written (a "note:" line on stderr if plugin.wasm is over 1 MiB, i.e. not built with the size
profile); 1 refused (one "error E_CODE: message" line on stderr, nothing written); 2 usage error.
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

const BUILD_COMMAND = 'cargo build --release --target wasm32-unknown-unknown';
const RELEASE_BUILD = `A release build with the [profile.release] of sdk-rust/README.md (opt-level "s", lto, codegen-units 1, panic "abort", strip) is usually under 300 KB: add it to Cargo.toml and run "${BUILD_COMMAND}".`;
/** Above this the module still packs, but it is almost certainly not built with the size profile. */
export const LARGE_WASM_BYTES = 1024 * 1024;

/** What a missing input usually means for a newcomer following the tutorial. */
const MISSING_INPUT: Record<'manifest' | 'wasm' | 'license', string> = {
  manifest: 'Write manifest.json as step 3 of sdk-rust/README.md shows, or fix the --manifest path.',
  wasm: `Build it first with "${BUILD_COMMAND}". Cargo names it target/wasm32-unknown-unknown/release/CRATE.wasm with "-" in the crate name turned into "_", and writes it only if Cargo.toml has crate-type = ["cdylib"] under [lib].`,
  license:
    'Every package carries its license text: create the file (for example LICENSE with the MIT or Apache-2.0 text) and pass it with --license.',
};

/** The validator's fix sentence speaks of the package; when the cause is the build, say which build to run. */
function buildHint(code: string, wasmPath: string, wasmBytes: number): string {
  if (code === 'E_PACKAGE_ENTRY_TOO_LARGE' && wasmBytes > PACKAGE_LIMITS.wasmBytes) {
    const debug = /(^|[\\/])debug[\\/]/.test(wasmPath) ? ' It is a debug build (target/…/debug/).' : '';
    return ` ${wasmPath} is ${wasmBytes} bytes.${debug} ${RELEASE_BUILD}`;
  }
  return '';
}

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
    files = {
      manifest: need('manifest', '--manifest FILE'),
      wasm: need('wasm', '--wasm FILE'),
      license: need('license', '--license FILE'),
      out: need('out', '-o OUT'),
    };
    const input = (['manifest', 'wasm', 'license'] as const).find((key) => resolve(files[key]) === resolve(files.out));
    if (input)
      throw new UsageError(
        `-o ${files.out} is also the --${input} input, and packing would overwrite it; write the package elsewhere, e.g. -o NAME.hplugin.zip`,
      );
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
      errorLine(io, 'E_FILE_READ', readProblem(files[key], error, `--${key}`, MISSING_INPUT[key]));
      return EXIT_REFUSED;
    }
  }

  // Refuse an output path that is a folder before packing, so the message names the real mistake.
  if ((await stat(files.out).catch(() => null))?.isDirectory()) {
    errorLine(io, 'E_FILE_WRITE', writeProblem(files.out, null, true));
    return EXIT_REFUSED;
  }

  let result;
  try {
    result = await packPackage({ manifest: inputs.manifest!, wasm: inputs.wasm!, license: inputs.license! });
  } catch (error) {
    const data = toErrorData(error);
    // The validator names the file as it is inside a package; the author's may be called something else.
    const message =
      data.code === 'E_MANIFEST_JSON' ? data.message.replace(/^manifest\.json /, `${files.manifest} `) : data.message;
    errorLine(io, data.code, `${message}${buildHint(data.code, files.wasm, inputs.wasm!.length)}`);
    return EXIT_REFUSED;
  }

  // Write beside the target and rename, so a failed write never leaves a half package under the final name.
  const temp = `${files.out}.${process.pid}.tmp`;
  try {
    await writeFile(temp, result.bytes);
    await rename(temp, files.out);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    errorLine(io, 'E_FILE_WRITE', writeProblem(files.out, error));
    return EXIT_REFUSED;
  }
  io.stdout(`wrote ${files.out}\n${formatSummary(result.validated)}`);
  if (inputs.wasm!.length > LARGE_WASM_BYTES) {
    io.stderr(`note: ${files.wasm} is ${inputs.wasm!.length} bytes. ${RELEASE_BUILD}\n`);
  }
  return EXIT_OK;
}
