// `i cache-report -C PROJECT [--config FILE] [--json]` (seed 000 §8): what the cache module recorded for a project,
// read from the statistics file it writes under the project's state folder. Nothing is changed and no model is
// called. A missing file, a file that is not a statistics document, or a bad cache.json is a configuration error
// (exit 2) with its E_ code and what to do; the report itself exits 0 whatever the ratio.
import { join, resolve } from 'node:path';
import { readJsonFile } from '../../../plugin-host/fs/node';
import { escapeControls, HarnessError, stringifyForTerminal } from '../contracts';
import { parseCacheConfig, type CacheConfig } from '../modules';
import { cacheReport, parseStats, type CacheRecord, type CacheReport, type CacheStats } from '../modules';
import { corruptStats } from '../modules';
import { cliErrorData, EXIT_OK, EXIT_USAGE, type CliIo } from './run';
import { resolveAppPaths } from './paths';
import { headlessWorkspaceId } from './workspace-id';
import { projectFolder, unknownFor, walkFlags } from './flags';

export const CACHE_REPORT_USAGE = `Usage: i cache-report [-C DIR] [--config FILE] [--json]

Reports the prompt-cache statistics the cache module recorded for the project DIR (seed 000 §8): how much of the
input the provider served from its cache, whether the target ratio is met, and the predicted class of every
request. It reads $I_DATA_DIR/workspaces/<id>/<stats> (<id>: the folder's workspace id, shared with i-bridge, see
\`i paths\`; <stats>: cache.json "stats", default metrics/cache-stats.json), changes nothing and calls no model.
Exit 0 with the report; 2 on usage or configuration errors (E_USAGE, E_WORKSPACE_INVALID, E_CACHE_CONFIG,
E_CONFIG_UNREADABLE, E_CACHE_STATS_MISSING, E_CACHE_STATS_CORRUPT), printed as \`error E_CODE: what to do\`.

Options:
  -C, --cwd DIR     The project folder. Default: the current directory.
  --config FILE     The cache settings (cache.json) that name the statistics file, the namespace and the target.
                    A relative path is resolved from the current directory. Default: $I_CONFIG_DIR/cache.json;
                    without that file the defaults apply (mode observe, namespace default, target 0.99).
  --json            Print the report as one JSON object instead of the table.
  -h, --help        This help.

Fields of the report (--json; the table shows the same):
  version                  1, the shape of this object.
  workspace, stats_file    The project folder and the statistics file read.
  config                   cache.json as in force: enabled, mode (observe adds no provider field; openai adds
                           prompt_cache_key and retention; anthropic adds cache_control with ttl), namespace,
                           stats, target_hit_ratio, retention, ttl.
  namespace                The namespace the file was recorded under.
  prepared                 Requests prepared, each physical retry counted again. Preparing is not proof that an
                           HTTP request was answered.
  observed                 Responses whose usage the module saw (a response is counted once).
  unknown_usage            Observed responses without usage the module could read (missing or inconsistent).
  unobserved               prepared - observed: preparations never answered (retries, failures, interruptions).
  input_tokens             Σ all input tokens of observed responses: OpenAI/Responses cached tokens are inside
                           the input; Anthropic input = plain + cache read + cache creation; DeepSeek = hit + miss.
  cache_read_tokens        Σ input tokens served from the provider's cache (Anthropic cache creation is a write,
                           never a hit).
  output_tokens            Σ output tokens.
  observed_token_hit_ratio cache_read_tokens / input_tokens, or null before any input.
  target_hit_ratio         The target (cache.json), default 0.99: a goal for a stated workload, not a promise.
  target_met               true or false when every preparation was observed with known usage; null while any
                           usage was unknown, any preparation was never observed, or no input was recorded. A
                           cold, missed or expired request is counted as it was, never presumed a hit.
  target_met_reason        met | missed | unknown_usage | unobserved | no_input.
  classes                  Predicted classes (counts over all time): new (first request of a stream), append
                           (the previous request is a prefix), reset (the prefix changed), compact (a summary
                           request, and the first diverging request after it).
  streams                  Kept streams (namespace + model + session, at most 256), newest first: stream (hash),
                           items (prefix items last seen), last_at (ms), compacting.
  records                  The latest records (at most 200), oldest first: id, at (ms), stream, class, protocol,
                           model, prepared, observed, input, cache_read, output (null while unknown).
The file holds counts, hashes and classes only: never prompts, tool bodies or credentials.`;

export type TargetReason = 'met' | 'missed' | 'unknown_usage' | 'unobserved' | 'no_input';

export interface CacheReportDocument extends CacheReport {
  version: 1;
  workspace: string;
  stats_file: string;
  config: CacheConfig;
  output_tokens: number;
  target_met_reason: TargetReason;
  streams: Array<{ stream: string; items: number; last_at: number; compacting: boolean }>;
  records: CacheRecord[];
}

interface Args {
  dir: string | null;
  config: string | null;
  json: boolean;
  help: boolean;
}

const usageError = (message: string) =>
  new HarnessError('E_USAGE', `${message} Run \`i cache-report --help\` for usage.`);

function parseReportArgs(argv: readonly string[]): Args {
  const out: Args = { dir: null, config: null, json: false, help: false };
  walkFlags(
    argv,
    usageError,
    (flag, take) => {
      if (flag === '-h' || flag === '--help') out.help = true;
      else if (flag === '-C' || flag === '--cwd') out.dir = take();
      else if (flag === '--config') out.config = take();
      else if (flag === '--json') out.json = true;
      else return false;
      return true;
    },
    unknownFor('cache-report'),
  );
  return out;
}

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;

/** The shallow version check of parseStats plus the figures the report prints: a hand-edited file is refused whole. */
function checkStats(value: unknown, file: string): CacheStats {
  const s = parseStats(value, '');
  const t = s?.totals as unknown as Record<string, unknown> | undefined;
  const classes = t?.classes as Record<string, unknown> | undefined;
  const ok =
    s !== null &&
    value !== undefined &&
    typeof s.namespace === 'string' &&
    ['prepared', 'observed', 'unknown_usage', 'input_tokens', 'cache_read_tokens', 'output_tokens'].every((k) =>
      isCount(t?.[k]),
    ) &&
    ['new', 'append', 'reset', 'compact'].every((k) => isCount(classes?.[k])) &&
    s.records.every(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        typeof r.class === 'string' &&
        typeof r.model === 'string' &&
        typeof r.protocol === 'string' &&
        Number.isFinite(r.at),
    );
  if (!ok) throw corruptStats(file);
  return s;
}

function reasonOf(r: CacheReport): TargetReason {
  if (r.target_met !== null) return r.target_met ? 'met' : 'missed';
  if (r.unknown_usage > 0) return 'unknown_usage';
  if (r.unobserved > 0) return 'unobserved';
  return 'no_input';
}

/** The report of the project's statistics file; throws the E_ errors listed in the help. */
export async function buildCacheReport(
  io: Pick<CliIo, 'env' | 'cwd'>,
  args: Pick<Args, 'dir' | 'config'>,
): Promise<CacheReportDocument> {
  const paths = resolveAppPaths(io.env);
  const workspace = await projectFolder(io.cwd, args.dir);
  const configFile = args.config !== null ? resolve(io.cwd, args.config) : join(paths.config_dir, 'cache.json');
  const raw = await readJsonFile(configFile);
  if (raw === undefined && args.config !== null) {
    throw new HarnessError(
      'E_CONFIG_UNREADABLE',
      `There is no cache settings file at ${configFile}. Check --config, or leave it out to use ${join(paths.config_dir, 'cache.json')} or the defaults.`,
      { file: configFile },
    );
  }
  const config = parseCacheConfig(raw, configFile);
  // The same workspace id as a run of `i` in that folder (run.ts), so the report reads the file the runs wrote.
  const { id } = await headlessWorkspaceId(paths.data_dir, workspace, null);
  const statsFile = join(paths.data_dir, 'workspaces', id, ...config.stats.split('/'));
  const value = await readJsonFile(statsFile, { maxBytes: 8 * 1024 * 1024 });
  if (value === undefined) {
    throw new HarnessError(
      'E_CACHE_STATS_MISSING',
      `No cache statistics for ${workspace} at ${statsFile}: the cache module has not recorded a request there yet. Run a turn with the cache module on (plugins.json profile "full", or a profile that keeps "cache"), or check -C and the "stats" path of ${configFile}.`,
      { file: statsFile, workspace },
    );
  }
  const stats = checkStats(value, statsFile);
  const report = cacheReport(stats, config.target_hit_ratio);
  const streams = Object.entries(stats.streams)
    .map(([stream, s]) => ({ stream, items: s.items, last_at: s.last_at, compacting: s.compacting }))
    .sort((a, b) => b.last_at - a.last_at);
  return {
    version: 1,
    workspace,
    stats_file: statsFile,
    config,
    ...report,
    output_tokens: stats.totals.output_tokens,
    target_met_reason: reasonOf(report),
    streams,
    records: stats.records,
  };
}

const int = (n: number) => n.toLocaleString('en-US');
const pct = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(1)}%`);
const utc = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
const cell = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
/** Text from the file (model names, namespaces) is untrusted: controls are shown escaped, on one line. */
const safe = (text: string) => escapeControls(text, { keepLayout: false });

const REASON_TEXT: Record<TargetReason, (r: CacheReportDocument) => string> = {
  met: () => 'yes',
  missed: () => 'no',
  unknown_usage: (r) => `unknown: ${r.unknown_usage} response(s) had no usage the cache module could read`,
  unobserved: (r) => `unknown: ${r.unobserved} prepared request(s) (retries included) were never observed`,
  no_input: () => 'unknown: no input was recorded yet',
};

/** The short human-readable table. */
export function formatCacheReport(r: CacheReportDocument, lastRecords = 10): string {
  const c = r.config;
  const lines = [
    `Cache statistics of ${safe(r.workspace)}`,
    `  file         ${safe(r.stats_file)}`,
    `  cache.json   mode ${c.mode}${c.enabled ? '' : ' (disabled)'}, namespace ${safe(c.namespace)}${r.namespace !== c.namespace ? ` (the file was recorded under ${safe(r.namespace)})` : ''}`,
    `  requests     ${int(r.prepared)} prepared, ${int(r.observed)} observed, ${int(r.unknown_usage)} with unknown usage, ${int(r.unobserved)} never observed`,
    `  tokens       ${int(r.input_tokens)} input, ${int(r.cache_read_tokens)} read from the cache, ${int(r.output_tokens)} output`,
    `  hit ratio    ${pct(r.observed_token_hit_ratio)} (Σ cache read / Σ input), target ${pct(r.target_hit_ratio)}`,
    `  target met   ${REASON_TEXT[r.target_met_reason](r)}`,
    `  classes      new ${int(r.classes.new)} · append ${int(r.classes.append)} · reset ${int(r.classes.reset)} · compact ${int(r.classes.compact)} (predicted)`,
    `  streams      ${r.streams.length}${r.streams[0] ? `, latest ${utc(r.streams[0].last_at)} UTC` : ''}`,
  ];
  const shown = r.records.slice(-lastRecords);
  if (shown.length > 0) {
    lines.push('', `Last ${shown.length} of ${r.records.length} record(s), oldest first:`);
    lines.push(
      `  ${cell('time (UTC)', 20)} ${cell('class', 8)} ${cell('protocol', 10)} ${cell('model', 26)} ${'input'.padStart(10)} ${'cache read'.padStart(10)} ${'hit'.padStart(7)}`,
    );
    for (const x of shown) {
      const hit = x.input !== null && x.cache_read !== null && x.input > 0 ? x.cache_read / x.input : null;
      const num = (n: number | null) => (n === null ? (x.observed ? '?' : '—') : int(n));
      lines.push(
        `  ${cell(utc(x.at), 20)} ${cell(safe(x.class), 8)} ${cell(safe(x.protocol), 10)} ${cell(safe(x.model), 26)} ${num(x.input).padStart(10)} ${num(x.cache_read).padStart(10)} ${pct(hit).padStart(7)}${x.prepared > 1 ? ` ×${x.prepared}` : ''}`,
      );
    }
    lines.push('  (— never observed, ? usage unknown, ×N prepared N times)');
  }
  return `${lines.join('\n')}\n`;
}

/** The `i cache-report` command: argv after "cache-report". */
export async function runCacheReport(io: CliIo): Promise<number> {
  const json = io.argv.includes('--json');
  const fail = (error: unknown) => {
    const e = cliErrorData(error, 'E_CONFIG_INVALID');
    if (json) io.stdout(`${stringifyForTerminal({ type: 'error', error: e })}\n`);
    else io.stderr(`error ${safe(e.code)}: ${safe(e.message)}\n`);
    return EXIT_USAGE;
  };
  let args: Args;
  try {
    args = parseReportArgs(io.argv);
  } catch (error) {
    return fail(error);
  }
  if (args.help) {
    io.stdout(`${CACHE_REPORT_USAGE}\n`);
    return EXIT_OK;
  }
  try {
    const report = await buildCacheReport(io, args);
    io.stdout(args.json ? `${stringifyForTerminal(report, 2)}\n` : formatCacheReport(report));
    return EXIT_OK;
  } catch (error) {
    return fail(error);
  }
}
