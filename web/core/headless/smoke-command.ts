// `i smoke [--config FILE] [--output-cap N] [--thinking] [--image FILE] [--json] [--no-logo]` (seed 000 §10): one request under
// the smoke policy (web/core/smoke, the same as the app's Test connection) to the model of the config file. Tools
// are removed, the output is capped, a tool call in the answer is refused, and the cache module only observes into
// $I_DATA_DIR/metrics/smoke-cache.json — never into a project's statistics. Exit codes as `i`: 0 answered, 1 the
// request failed or was refused, 2 usage or configuration errors.
import { promises as fsp } from 'node:fs';
import { join, resolve } from 'node:path';
import { colourAllowed, terminalLogo } from '../brand';
import { escapeControls, escapeProse, HarnessError, stringifyForTerminal, type ErrorData } from '../contracts';
import { createNodeStatsStore } from '../modules/node';
import {
  runSmoke,
  SMOKE_NAMESPACE,
  SMOKE_STATS_FILE,
  smokeOutputCap,
  type ConnectionReport,
  type SmokeVariant,
} from '../smoke';
import { MAX_IMAGE_BYTES, sniffImage } from '../contracts';
import { readJson } from './config-files';
import { unknownFor, walkFlags } from './flags';
import { parseModelConfig, type ModelConfig } from './model-config';
import { startNativeWorkers, type NativeWorkers } from './native';
import { resolveAppPaths } from './paths';
import { cliErrorData, EXIT_OK, EXIT_TURN_FAILED, EXIT_USAGE, headlessErrorData, type CliIo } from './run';

export const SMOKE_USAGE = `Usage: i smoke [--config FILE] [--output-cap N] [--thinking] [--image FILE] [--json] [--no-logo]

Checks the model of the config file with one cheap request, under the same smoke policy as the app's Test
connection: no tools are offered (tool-choosing extra_body fields are dropped), the output is capped, and an answer
that calls a tool anyway is refused (E_SMOKE_TOOL_CALL). Prints the latency, the token usage and the reply. The
request is billed like any other; one answer proves the connection, not a cache hit ratio.
The cache module only observes (no provider cache field is added, whatever cache.json says) and records into
$I_DATA_DIR/metrics/smoke-cache.json, apart from every project's statistics (i cache-report never reads it).
Exit 0 when the model answered; 1 when the request failed or the answer was refused; 2 on usage or configuration
errors, printed as \`error E_CODE: what to do\`.

Options:
  --config FILE     The model config (as for i; a relative path from the current directory).
                    Default: $I_CONFIG_DIR/config.json.
  --output-cap N    The output cap in tokens, 1 to 1024. Default 32 (1024 with --thinking).
  --thinking        The thinking variant, for models that reason before replying: the cap defaults to 1024 and the
                    config's extra_body (where a thinking switch lives) is sent as it is. Tools stay refused.
  --image FILE      The vision variant: the image (PNG, JPEG, GIF or WebP, at most 8 MiB) goes with the prompt and
                    the reply names what it shows; the cap defaults to 1024. Tools stay refused.
  --json            Print one JSON object {"type": "smoke", ...} instead of the lines.
  --no-logo         Leave out the logo printed above the report on a terminal (NO_COLOR turns its colour off).
  -h, --help        This help.`;

interface SmokeArgs {
  config: string | null;
  image: string | null;
  outputCap: number | null;
  variant: SmokeVariant;
  json: boolean;
  logo: boolean;
  help: boolean;
}

const usageError = (message: string) => new HarnessError('E_USAGE', `${message} Run \`i smoke --help\` for usage.`);

function parseSmokeArgs(argv: readonly string[]): SmokeArgs {
  const out: SmokeArgs = {
    config: null,
    image: null,
    outputCap: null,
    variant: 'plain',
    json: false,
    logo: true,
    help: false,
  };
  walkFlags(
    argv,
    usageError,
    (flag, take) => {
      if (flag === '-h' || flag === '--help') out.help = true;
      else if (flag === '--config') out.config = take();
      else if (flag === '--thinking') out.variant = out.variant === 'vision' ? 'vision' : 'thinking';
      else if (flag === '--image') {
        out.image = take();
        out.variant = 'vision';
      } else if (flag === '--json') out.json = true;
      else if (flag === '--no-logo') out.logo = false;
      else if (flag === '--output-cap') {
        // Digits only: Number() would also take "0x10", "1e2" and " 3 ".
        const text = take();
        out.outputCap = /^[0-9]{1,5}$/.test(text) ? Number(text) : NaN;
      } else return false;
      return true;
    },
    unknownFor('smoke'),
  );
  if (out.outputCap !== null) smokeOutputCap(out.outputCap, out.variant);
  return out;
}

interface Prepared {
  config: ModelConfig;
  configFile: string;
  apiKey: string | undefined;
  statsFile: string;
  dataDir: string;
  /** The vision variant's image as a data URL. */
  image?: string;
}

async function prepare(io: CliIo, args: SmokeArgs): Promise<Prepared> {
  const paths = resolveAppPaths(io.env);
  const configFile = args.config !== null ? resolve(io.cwd, args.config) : join(paths.config_dir, 'config.json');
  if (
    args.config === null &&
    !(await fsp.stat(configFile).then(
      () => true,
      () => false,
    ))
  ) {
    throw new HarnessError(
      'E_CONFIG_MISSING',
      `No model config at ${configFile}. Create it (fields: \`i --help\`) or pass --config FILE.`,
      { file: configFile },
    );
  }
  const { config } = parseModelConfig(await readJson(configFile, 'model config'), configFile);
  let apiKey: string | undefined;
  if (config.api_key_env) {
    apiKey = io.env[config.api_key_env];
    if (!apiKey)
      throw new HarnessError(
        'E_API_KEY_MISSING',
        `The environment variable ${config.api_key_env} (api_key_env in ${configFile}) is not set. Export the key in it, or remove api_key_env for a local server without auth.`,
        { name: config.api_key_env },
      );
  }
  const image = args.image === null ? undefined : await imageDataUrl(resolve(io.cwd, args.image));
  return {
    config,
    configFile,
    apiKey,
    statsFile: join(paths.data_dir, ...SMOKE_STATS_FILE.split('/')),
    dataDir: paths.data_dir,
    ...(image ? { image } : {}),
  };
}

/** The image file as a data URL; its kind from its first bytes (the smoke policy checks it again). */
async function imageDataUrl(file: string): Promise<string> {
  const stat = await fsp.stat(file).catch(() => null);
  if (!stat?.isFile())
    throw new HarnessError(
      'E_SMOKE_IMAGE',
      `--image ${file} is not a file. Give the path of a PNG, JPEG, GIF or WebP image.`,
      { file },
    );
  if (stat.size > MAX_IMAGE_BYTES)
    throw new HarnessError(
      'E_SMOKE_IMAGE',
      `--image ${file} has ${stat.size} bytes, more than ${MAX_IMAGE_BYTES}. Use a smaller image.`,
      { file },
    );
  const bytes = new Uint8Array(await fsp.readFile(file));
  const kind = sniffImage(bytes);
  if (!kind)
    throw new HarnessError(
      'E_SMOKE_IMAGE',
      `--image ${file} is not a PNG, JPEG, GIF or WebP image. Convert it to one of these.`,
      { file },
    );
  return `data:${kind};base64,${Buffer.from(bytes).toString('base64')}`;
}

const line = (text: string) => escapeControls(text, { keepLayout: false });
const ms = (n: number) => `${Math.round(n)} ms`;

function reportLines(r: ConnectionReport, p: Prepared, variant: SmokeVariant): string {
  const c = p.config;
  const u = r.usage;
  const out = [
    `smoke   ${line(c.protocol)} ${line(c.model)} at ${line(c.base_url)} (no tools, output cap ${r.outputCap}${variant === 'plain' ? '' : `, ${variant}`})`,
  ];
  out.push(
    `${r.ok ? 'ok     ' : 'failed '} ${ms(r.latencyMs)}${r.firstEventMs !== undefined ? ` (first event after ${ms(r.firstEventMs)})` : ''}`,
  );
  if (u) {
    const cached = u.cache_read_tokens ? `, ${u.cache_read_tokens} of them from the cache` : '';
    const reasoning = u.reasoning_tokens ? `, ${u.reasoning_tokens} of them reasoning` : '';
    out.push(`usage   ${u.input_tokens ?? '?'} input${cached}, ${u.output_tokens ?? '?'} output tokens${reasoning}`);
  } else if (r.text !== undefined) out.push('usage   not reported by the server');
  if (r.reasoningChars) out.push(`reason  ${r.reasoningChars} characters of reasoning`);
  if (r.text !== undefined) out.push(`reply   ${escapeProse(r.text).trim() || '(empty)'}`);
  if (r.ok && r.finishReason === 'length') {
    out.push(
      `note    the reply was cut at the output cap (${r.outputCap} tokens): the connection works${variant === 'plain' ? '; a model that reasons first needs --thinking' : ''}.`,
    );
  }
  out.push(`stats   ${line(p.statsFile)} (observed only)`);
  return `${out.join('\n')}\n`;
}

/** The `i smoke` command: argv after "smoke". `isTTY`: stdout is a terminal (the logo is printed only there). */
export async function runSmokeCommand(io: CliIo & { isTTY?: boolean }): Promise<number> {
  const json = io.argv.includes('--json');
  const fail = (e: ErrorData, code: number) => {
    if (json) io.stdout(`${stringifyForTerminal({ type: 'error', error: e })}\n`);
    else io.stderr(`error ${line(e.code)}: ${line(e.message)}\n`);
    return code;
  };
  let args: SmokeArgs;
  let prep: Prepared;
  try {
    args = parseSmokeArgs(io.argv);
    if (args.help) {
      io.stdout(`${SMOKE_USAGE}\n`);
      return EXIT_OK;
    }
    prep = await prepare(io, args);
  } catch (error) {
    return fail(cliErrorData(error, 'E_USAGE'), EXIT_USAGE);
  }
  let native: NativeWorkers | undefined;
  try {
    // A custom protocol or an explicit provider binding answers through its worker, as in a turn; the manifest's
    // tools and hooks are not used (the smoke request offers no tools).
    try {
      native = await startNativeWorkers({
        config: prep.config,
        configFile: prep.configFile,
        workspace: await fsp.realpath(io.cwd),
        env: io.env,
      });
    } catch (error) {
      return fail(cliErrorData(error, 'E_CONFIG_INVALID'), EXIT_USAGE);
    }
    const c = prep.config;
    const report = await runSmoke(
      {
        protocol: c.protocol,
        base_url: c.base_url,
        model: c.model,
        api_key_env: c.api_key_env,
        use_max_tokens: c.use_max_tokens,
        extra_body: c.extra_body,
        ...(native.adapter ? { adapter: native.adapter } : {}),
      },
      {
        variant: args.variant,
        outputCap: args.outputCap,
        ...(prep.image ? { image: prep.image } : {}),
        getSecret: () => prep.apiKey,
        stats: createNodeStatsStore({ stateRoot: prep.dataDir, stats: SMOKE_STATS_FILE, namespace: SMOKE_NAMESPACE }),
        signal: io.signal,
        ...(io.fetch ? { fetch: io.fetch } : {}),
      },
    );
    const error = report.error ? headlessErrorData(report.error, c, prep.configFile) : undefined;
    if (json) {
      io.stdout(
        `${stringifyForTerminal({
          type: 'smoke',
          version: 1,
          ok: report.ok,
          protocol: c.protocol,
          model: c.model,
          base_url: c.base_url,
          variant: args.variant,
          output_cap: report.outputCap,
          latency_ms: Math.round(report.latencyMs),
          first_event_ms: report.firstEventMs !== undefined ? Math.round(report.firstEventMs) : null,
          finish_reason: report.finishReason ?? null,
          usage: report.usage ?? null,
          reply: report.text ?? null,
          stats_file: prep.statsFile,
          ...(error ? { error } : {}),
        })}\n`,
      );
    } else {
      if (args.logo && io.isTTY) io.stdout(`${terminalLogo({ color: colourAllowed(io.env), ascii: false })}\n`);
      io.stdout(reportLines(report, prep, args.variant));
      if (error) io.stderr(`error ${line(error.code)}: ${line(error.message)}\n`);
    }
    return report.ok ? EXIT_OK : EXIT_TURN_FAILED;
  } finally {
    await native?.stop();
  }
}
