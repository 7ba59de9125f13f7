// The headless `i` run: parse arguments, load the model config and approval settings, open (or resume) the
// session, run one turn of the same core the app uses, print the answer or NDJSON events, return the exit code.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join, resolve } from 'node:path';
import { openSessionForTurn, RESULT_STORE_LIMITS, runTurn, transportStream, turnResultViews } from '../agent';
import { profileHooks, type ProfileHooks } from '../agent/profile-hooks';
import type { ModelSettings, TurnResult } from '../agent/types';
import { DEFAULT_APPROVAL, type ApprovalSettings } from '../approval';
import { HarnessError, toErrorData, type ErrorData } from '../errors';
import { HookPipeline } from '../hooks';
import { createMemoryContentStore } from '../context';
import { builtinModules, parseCacheConfig, resolveSystemPrompt } from '../modules';
import { createNodeStatsStore, loadCompactConfig, loadNodeModules, type NodeModules } from '../modules/node';
import { readJsonFile } from '../../../plugin-host/fs/node';
import type { Message } from '../providers/types';
import { checkSessionName, createFileSessionStore } from '../sessions/node';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { compileSchema } from '../tools/validate';
import { parseArgs, USAGE } from './args';
import { toJsonEvent, type JsonEvent } from './json-events';
import { parseModelConfig, type ModelConfig } from './model-config';
import type { BudgetSettings } from '../hooks';
import { resolveAppPaths, type AppPaths } from './paths';
import type { CacheConfig, StatsStore } from '../modules';
import { createHeadlessTools } from './tools';
import { startNativeWorkers, type NativeWorkers } from './native';

export interface CliIo {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal: AbortSignal;
  version: string;
  fetch?: typeof fetch;
}

/** Exit codes: 0 the model finished; 1 the turn failed; 2 usage or configuration error. */
export const EXIT_OK = 0;
export const EXIT_TURN_FAILED = 1;
export const EXIT_USAGE = 2;

const approvalCheck = compileSchema(
  {
    type: 'object',
    additionalProperties: false,
    properties: { mode: { enum: ['ask', 'auto'] }, deny_tools: { type: 'array', items: { type: 'string' } } },
  },
  'approval',
);

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HarnessError('E_CONFIG_UNREADABLE', `Cannot read the ${what} ${file} (${code ?? String(error)}). Check the path.`, { file });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new HarnessError('E_CONFIG_INVALID', `The ${what} ${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`, { file });
  }
}

async function loadApproval(configDir: string, yolo: boolean): Promise<ApprovalSettings> {
  const file = join(configDir, 'approval.json');
  const exists = await fsp.stat(file).then(() => true, () => false);
  if (!exists) return { ...DEFAULT_APPROVAL, yolo };
  const value = await readJson(file, 'approval settings');
  const problems = approvalCheck(value);
  if (problems.length > 0) throw new HarnessError('E_CONFIG_INVALID', `The approval settings ${file} are invalid: ${problems.join('; ')}.`, { file });
  const v = value as Partial<ApprovalSettings>;
  return { mode: v.mode ?? 'ask', deny_tools: v.deny_tools ?? [], yolo };
}

interface Prepared {
  config: ModelConfig;
  budget: BudgetSettings | null;
  approval: ApprovalSettings;
  workspace: string;
  apiKey: string | undefined;
  configFile: string;
}

async function prepare(io: CliIo, args: ReturnType<typeof parseArgs>): Promise<Prepared> {
  const paths = resolveAppPaths(io.env);
  const dir = resolve(io.cwd, args.dir ?? '.');
  let workspace: string;
  try {
    workspace = await fsp.realpath(dir);
    if (!(await fsp.stat(workspace)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new HarnessError('E_WORKSPACE_INVALID', `The project folder ${dir} does not exist or is not a folder. Check -C.`, { dir });
  }
  if (args.sessionName !== null) checkSessionName(args.sessionName);
  // A relative --config is resolved from the current directory, not from -C (the person typed it here).
  const configFile = args.config !== null ? resolve(io.cwd, args.config) : join(paths.config_dir, 'config.json');
  const { config, budget } = parseModelConfig(await readJson(configFile, 'model config'), configFile);
  // "route" is the app's choice: "bridge" sends model calls through the paired bridge's proxy because a page meets
  // CORS. Node meets no CORS, so headless i calls the same base_url directly whatever the route says; a config
  // exported from the app runs here unchanged.
  let apiKey: string | undefined;
  if (config.api_key_env) {
    apiKey = io.env[config.api_key_env];
    if (!apiKey) {
      throw new HarnessError('E_API_KEY_MISSING', `The environment variable ${config.api_key_env} (api_key_env in ${configFile}) is not set. Export the key in it, or remove api_key_env for a local server without auth.`, { name: config.api_key_env });
    }
  }
  const approval = await loadApproval(paths.config_dir, args.yolo);
  return { config, budget, approval, workspace, apiKey, configFile };
}

function modelSettings(config: ModelConfig, budget: BudgetSettings | null): ModelSettings {
  return { protocol: config.protocol, base_url: config.base_url, model: config.model, max_tokens: config.max_tokens, use_max_tokens: config.use_max_tokens, extra_body: config.extra_body, budget };
}

/**
 * The profile's budget/compact/cache hooks: compact.json and cache.json from config_dir (read only when their
 * module runs), cache statistics under data_dir/workspaces/<workspace id>/ (cache.json `stats`).
 */
async function loadProfileHooks(paths: AppPaths, workspaceId: string, modules: NodeModules, model: ModelSettings): Promise<ProfileHooks> {
  const active = builtinModules(modules.selection, modules.bindings);
  const compactOn = active.has('compact') || (model.protocol === 'responses' && active.has('responses-compact'));
  const compact = compactOn ? await loadCompactConfig(paths.config_dir) : undefined;
  let cache: { config: CacheConfig; store: StatsStore } | undefined;
  if (active.has('cache')) {
    const file = join(paths.config_dir, 'cache.json');
    const config = parseCacheConfig(await readJsonFile(file), file);
    cache = { config, store: createNodeStatsStore({ stateRoot: join(paths.data_dir, 'workspaces', workspaceId), stats: config.stats, namespace: config.namespace }) };
  }
  return profileHooks({ selection: modules.selection, bindings: modules.bindings, model, ...(compact ? { compact } : {}), ...(cache ? { cache } : {}) });
}

/** Runs the CLI; the private i-bridge of native workers (plugins, provider) is stopped however the run ends. */
export async function runCli(io: CliIo): Promise<number> {
  const slot: { native?: NativeWorkers } = {};
  try {
    return await runWith(io, slot);
  } finally {
    await slot.native?.stop();
  }
}

async function runWith(io: CliIo, slot: { native?: NativeWorkers }): Promise<number> {
  let json = io.argv.includes('--json');
  const emit = (e: JsonEvent) => io.stdout(`${JSON.stringify(e)}\n`);
  const fail = (error: ErrorData, code: number, stopReason: string | null = null) => {
    if (json) emit({ type: 'error', stop_reason: stopReason, error });
    else io.stderr(`error ${error.code}: ${error.message}\n`);
    return code;
  };

  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(io.argv);
  } catch (error) {
    return fail(toErrorData(error, 'E_USAGE'), EXIT_USAGE);
  }
  json = args.json;
  if (args.help) {
    io.stdout(`${USAGE}\n`);
    return EXIT_OK;
  }
  if (args.version) {
    io.stdout(`i ${io.version}\n`);
    return EXIT_OK;
  }

  let prep: Prepared;
  try {
    prep = await prepare(io, args);
  } catch (error) {
    return fail(toErrorData(error, 'E_USAGE'), EXIT_USAGE);
  }
  const { config, budget, approval, workspace, apiKey } = prep;
  let native: NativeWorkers;
  try {
    native = slot.native = await startNativeWorkers({ config, configFile: prep.configFile, workspace, env: io.env });
  } catch (error) {
    return fail(toErrorData(error, 'E_CONFIG_INVALID'), EXIT_USAGE);
  }
  for (const w of native.warnings) io.stderr(`warning: ${w}\n`);

  const hooks = new HookPipeline();
  const workspaceId = createHash('sha256').update(workspace).digest('hex').slice(0, 32);
  let fs;
  let modules: NodeModules;
  let systemPrompt: string;
  let profile: ProfileHooks;
  try {
    fs = await createNodeWorkspaceFs({ root: workspace, access: 'read-write' });
    // The profile's modules from config_dir (plugins.json, bindings.json, web.json, skills.json, prompts.json);
    // memory under data_dir/workspaces/<workspace id>/. A bad file is a configuration error (exit 2).
    const paths = resolveAppPaths(io.env);
    modules = await loadNodeModules({ configDir: paths.config_dir, dataDir: paths.data_dir, fs, env: io.env });
    // `{{workspace}}` is the folder's real path here (the browser, without paths, uses the folder's name).
    systemPrompt = resolveSystemPrompt({ workspace, ...(modules.systemPrompt !== undefined ? { replacement: modules.systemPrompt } : {}) });
    profile = await loadProfileHooks(paths, workspaceId, modules, modelSettings(config, budget));
  } catch (error) {
    return fail(toErrorData(error, 'E_CONFIG_INVALID'), EXIT_USAGE);
  }
  // Budget, compaction and cache run as profile hooks for the whole run; the session's own hooks come later.
  for (const handler of profile.handlers) hooks.register(handler);
  for (const handler of native.hooks) hooks.register(handler); // manifest hooks after the profile modules
  for (const name of Object.keys(modules.bindings)) {
    if (name !== 'provider') io.stderr(`warning: the module "${name}" is bound to a bridge worker (bindings.json); headless i does not run workers yet, so it is off (no built-in fallback).\n`);
  }

  let history: Message[] = [];
  let session;
  if (args.sessionName !== null) {
    try {
      const store = createFileSessionStore({ root: join(workspace, '.i', 'sessions'), workspace, workspaceId });
      const opened = await openSessionForTurn(store, args.sessionName, hooks, io.signal, { createTitle: args.prompt!.slice(0, 80) });
      history = opened.history;
      session = opened.sink;
    } catch (error) {
      return fail(toErrorData(error, 'E_SESSION_FAILED'), EXIT_USAGE);
    }
  }

  // Bounded tool-result views (seed 002): the full text of a long result stays in memory for this run only.
  const results = turnResultViews({ store: createMemoryContentStore(RESULT_STORE_LIMITS), sessionId: args.sessionName ?? `run-${process.pid}` });
  const tools = createHeadlessTools([...modules.tools, results.tool]);
  for (const tool of native.tools) {
    try {
      tools.register(tool);
    } catch (error) {
      io.stderr(`warning: ${toErrorData(error).message}\n`); // a plugin tool may not shadow a built-in
    }
  }
  if (json) emit({ type: 'start', version: 1, session: args.sessionName, protocol: config.protocol, model: config.model, workspace });
  const stream = runTurn(
    {
      model: modelSettings(config, budget),
      history,
      content: args.prompt!,
      systemPrompt,
      ...(args.maxSteps ? { maxSteps: args.maxSteps } : {}),
    },
    {
      stream: transportStream({ apiKeyName: config.api_key_env, getSecret: () => apiKey, ...(io.fetch ? { fetch: io.fetch } : {}), ...(native.adapter ? { adapter: native.adapter } : {}) }),
      tools,
      results: { store: results.store, scope: results.scope },
      hooks,
      approval,
      fs,
      workspaceId,
      context: () => modules.contextState(workspaceId),
      ...(session ? { session } : {}),
      signal: io.signal,
    },
  );
  for await (const event of stream) {
    if (json) {
      const out = toJsonEvent(event);
      if (out) emit(out);
    } else if (event.type === 'tool-result') {
      io.stderr(`[${event.name}] ${event.error ? `refused/failed: ${event.code ?? 'error'}` : 'ok'}\n`);
    } else if (event.type === 'warning') {
      io.stderr(`warning ${event.error.code}: ${event.error.message}\n`);
    }
  }
  const result: TurnResult = await stream.result();
  if (!json) {
    if (result.text) io.stdout(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    if (result.error) io.stderr(`error ${result.error.code}: ${result.error.message}\n`);
    else if (result.stopReason !== 'stop') io.stderr(`error E_TURN_INCOMPLETE: the answer ended with "${result.stopReason}" (cut off or filtered).\n`);
  }
  return result.stopReason === 'stop' && !result.error ? EXIT_OK : EXIT_TURN_FAILED;
}
