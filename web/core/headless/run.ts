// The headless `i` run: parse arguments, load the model config and approval settings, open (or resume) the
// session, run one turn of the same core the app uses, print the answer or NDJSON events, return the exit code.
import { promises as fsp } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  openSessionForTurn,
  RESULT_STORE_LIMITS,
  runTurn,
  SESSION_RESULT_STORE_LIMITS,
  sessionResultViews,
  transportStream,
  turnResultViews,
} from '../agent';
import { profileHooks, type ProfileHooks } from '../agent';
import type { ModelSettings, TurnResult } from '../agent';
import type { ApprovalSettings } from '../approval';
import {
  escapeControls,
  escapeProse,
  HarnessError,
  stringifyForTerminal,
  toErrorData,
  type ErrorData,
} from '../contracts';
import { HookPipeline } from '../hooks';
import { createMemoryContentStore } from '../context';
import {
  approvalUnderProfile,
  builtinModules,
  checkProfileConfig,
  parseCacheConfig,
  resolveSystemPrompt,
  withWireProtocol,
} from '../modules';
import {
  createNodeStatsStore,
  loadBoundModules,
  loadCompactConfig,
  loadNodeModules,
  type NodeModules,
} from '../modules/node';
import { readJsonFile } from '../../../plugin-host/fs/node';
import { projectFolder } from './flags';
import type { Message } from '../contracts';
import { recoverSession } from '../sessions';
import { checkSessionName, createFileContentStore, createFileSessionStore } from '../sessions/node';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { protectWrites } from '../contracts';
import { loadApproval, readJson } from './config-files';
import { parseArgs, USAGE } from './args';
import { toJsonEvent, type JsonEvent } from './json-events';
import { parseModelConfig, type ModelConfig } from './model-config';
import type { BudgetSettings } from '../hooks';
import { resolveAppPaths, type AppPaths } from './paths';
import type { CacheConfig, StatsStore } from '../modules';
import { createHeadlessTools } from './tools';
import { groupedSelector } from '../tool-views';
import { startNativeWorkers, type NativeWorkers } from './native';
import { headlessCheckpoints, runChangesCommand } from './changes';
import { headlessOperationPlans, headlessProviderFiles } from './provider-files';
import { providerFilesStream, type PlanContext, type ProviderFilesContext } from '../provider-files';
import { checkExplicitWorkspaceId, runWorkspaceId } from './workspace-id';
import { createSessionFileStore } from './session-file';
import { createNodeShell } from '../shell/node';
import type { ShellTools } from '../shell';
import { loadShellSettings, type ShellSettings } from './shell-settings';

export interface CliIo {
  argv: readonly string[];
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal: AbortSignal;
  version: string;
  fetch?: typeof fetch;
  /** Standard input as text, for `-p -`; rejects with E_USAGE when it is a terminal. */
  readStdin?: () => Promise<string>;
}

/** Exit codes: 0 the model finished; 1 the turn failed; 2 usage or configuration error. */
export const EXIT_OK = 0;
export const EXIT_TURN_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * The error a person sees: a HarnessError (or plain `{code, message}` with an E_ code) as it is; anything else — a
 * Node error whose `code` is "ENOENT" or "ENOTDIR" — gets the stable fallback code and keeps its text.
 */
export function cliErrorData(error: unknown, fallbackCode: string): ErrorData {
  const data = toErrorData(error, fallbackCode);
  return data.code.startsWith('E_') ? data : { code: fallbackCode, message: data.message, data: { cause: data.code } };
}

/**
 * Transport messages are written for the browser (CORS, Chrome's prompts, "the credentials store"). Headless i
 * meets none of that, so the same codes get a sentence about what the person here can check: the server and
 * base_url, or the environment variable named by api_key_env.
 */
export function headlessErrorData(
  error: ErrorData,
  config: Pick<ModelConfig, 'base_url' | 'api_key_env' | 'budget'>,
  configFile: string,
): ErrorData {
  const d = (error.data ?? {}) as Record<string, unknown>;
  if (error.code === 'E_NETWORK' && d.route !== 'bridge') {
    const detail = typeof d.detail === 'string' && d.detail ? ` (${d.detail})` : '';
    return {
      ...error,
      message: `The connection to ${String(d.origin ?? config.base_url)} failed${detail}. Check that the model server runs and that base_url in ${configFile} is right, then try again.`,
    };
  }
  if (error.code === 'E_PROVIDER_AUTH') {
    const said = typeof d.provider_message === 'string' ? `: ${d.provider_message}` : '';
    const fix = config.api_key_env
      ? `Check the key in the environment variable ${config.api_key_env} and that it may use this model.`
      : `No key was sent: ${configFile} has no api_key_env. Set "api_key_env" to the name of the environment variable that holds the key.`;
    return { ...error, message: `The provider refused the request (${String(d.status ?? 'auth')}${said}). ${fix}` };
  }
  // The loop's own sentences name the app's settings; add where the same setting lives for headless i.
  if (error.code === 'E_STEP_LIMIT')
    return { ...error, message: `${error.message} Here the limit is --max-steps N (1-1000, default 50).` };
  if (error.code === 'E_CONTEXT_BUDGET' && config.budget?.context_window !== undefined) {
    return {
      ...error,
      message: `${error.message} If the model's window is larger, raise budget.context_window (now ${config.budget.context_window}) in ${configFile}.`,
    };
  }
  return error;
}

/** What to do when the model stopped without an error but also without finishing its answer. */
function incompleteMessage(stopReason: string, config: ModelConfig, configFile: string): string {
  switch (stopReason) {
    case 'length':
      return `The answer was cut off at the output limit (max_tokens ${config.max_tokens}). Raise max_tokens in ${configFile}, or ask for a shorter answer.`;
    case 'incomplete':
      return 'The model server ended the stream before the answer was finished (no finish reason). Try again; with --session-name the conversation so far is kept.';
    case 'content_filter':
      return "The provider's content filter stopped the answer. Rephrase the request.";
    default:
      return `The answer ended with "${stopReason}". Try again.`;
  }
}

interface Prepared {
  config: ModelConfig;
  budget: BudgetSettings | null;
  approval: ApprovalSettings;
  workspace: string;
  apiKey: string | undefined;
  configFile: string;
  shell: ShellSettings;
}

/** The canonical project folder of -C (default: the current directory). */
function resolveWorkspace(io: CliIo, args: ReturnType<typeof parseArgs>): Promise<string> {
  return projectFolder(io.cwd, args.dir);
}

/** A path as one shell word (quoted when it holds anything but plain path characters). */
const shellWord = (text: string) => (/^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** `--session-name NAME --recover NEW`: the intact part of NAME into the new session NEW; NAME is only read. */
async function recoverNamed(io: CliIo, args: ReturnType<typeof parseArgs>): Promise<string> {
  const name = args.sessionName!;
  const target = args.recover!;
  const workspace = await resolveWorkspace(io, args);
  checkSessionName(name);
  checkSessionName(target);
  const root = join(workspace, '.i', 'sessions');
  const store = createFileSessionStore({
    root,
    workspace,
    workspaceId: await runWorkspaceId(io, workspace, args.workspaceId),
  });
  const r = await recoverSession(store, name, { newId: target });
  const cut =
    r.cut > 0
      ? ` The ${r.cut} intact message(s) after it were left out: they end on a tool call whose results were lost.`
      : '';
  return (
    `Recovered the session "${name}" into the new session "${target}" (${join(root, target)}): ${r.kept} message(s) kept, ` +
    `up to the last complete step before the damage (entries 0–${r.intactEntries - 1} of 0–${r.committedEntries - 1} were intact).${cut}\n` +
    `The damaged session "${name}" was not changed: restore ${join(root, name)} from a backup, or delete that folder.\n` +
    `Continue with: i -C ${shellWord(workspace)} --session-name ${target} -p PROMPT\n`
  );
}

async function prepare(io: CliIo, args: ReturnType<typeof parseArgs>): Promise<Prepared> {
  const paths = resolveAppPaths(io.env);
  const workspace = await resolveWorkspace(io, args);
  if (args.sessionName !== null) checkSessionName(args.sessionName);
  // A relative --config is resolved from the current directory, not from -C (the person typed it here).
  const configFile = args.config !== null ? resolve(io.cwd, args.config) : join(paths.config_dir, 'config.json');
  if (
    args.config === null &&
    !(await fsp.stat(configFile).then(
      () => true,
      () => false,
    ))
  ) {
    // A newcomer's first run: say what the file is and how to make one, not just ENOENT.
    throw new HarnessError(
      'E_CONFIG_MISSING',
      `No model config at ${configFile}. Create it with at least {"base_url": "http://127.0.0.1:11434/v1", "model": "..."} (all fields: \`i --help\`), or pass --config FILE.`,
      { file: configFile },
    );
  }
  const { config, budget } = parseModelConfig(await readJson(configFile, 'model config'), configFile);
  // "route" is the app's choice: "bridge" sends model calls through the paired bridge's proxy because a page meets
  // CORS. Node meets no CORS, so headless i calls the same base_url directly whatever the route says; a config
  // exported from the app runs here unchanged.
  let apiKey: string | undefined;
  if (config.api_key_env) {
    apiKey = io.env[config.api_key_env];
    if (!apiKey) {
      throw new HarnessError(
        'E_API_KEY_MISSING',
        `The environment variable ${config.api_key_env} (api_key_env in ${configFile}) is not set. Export the key in it, or remove api_key_env for a local server without auth.`,
        { name: config.api_key_env },
      );
    }
  }
  const shell = await loadShellSettings(paths.config_dir, args.sandbox);
  // Mode auto runs a shell command unasked only inside the sandbox (and without network): the gate needs to know.
  const approval = { ...(await loadApproval(paths.config_dir, args.yolo)), sandbox: shell.sandbox === 'on' };
  return { config, budget, approval, workspace, apiKey, configFile, shell };
}

function modelSettings(config: ModelConfig, budget: BudgetSettings | null): ModelSettings {
  return {
    protocol: config.protocol,
    base_url: config.base_url,
    model: config.model,
    max_tokens: config.max_tokens,
    use_max_tokens: config.use_max_tokens,
    extra_body: config.extra_body,
    budget,
    provider: config.provider,
  };
}

/** The `responses` module sends protocol openai to the Responses API (modules/profiles/module-effects.ts). */
const wireModel = (model: ModelSettings, modules: NodeModules) =>
  withWireProtocol(model, builtinModules(modules.selection, modules.bindings));

/**
 * The profile's budget/compact/cache hooks: compact.json and cache.json from config_dir (read only when their
 * module runs), cache statistics under data_dir/workspaces/<workspace id>/ (cache.json `stats`).
 */
async function loadProfileHooks(
  paths: AppPaths,
  workspaceId: string,
  modules: NodeModules,
  model: ModelSettings,
  config: ModelConfig,
  configFile: string,
): Promise<ProfileHooks> {
  const active = builtinModules(modules.selection, modules.bindings);
  const compactOn = active.has('compact') || (model.protocol === 'responses' && active.has('responses-compact'));
  const compact = compactOn ? await loadCompactConfig(paths.config_dir) : undefined;
  // Seed 000 §7 / 003, before anything runs (exit 2): a profile that meters or compacts needs budget.context_window,
  // and protocol "responses" with the old responses hook would encode twice.
  checkProfileConfig(config, active, compact?.config.enabled ?? false, configFile);
  let cache: { config: CacheConfig; store: StatsStore } | undefined;
  if (active.has('cache')) {
    const file = join(paths.config_dir, 'cache.json');
    const config = parseCacheConfig(await readJsonFile(file), file);
    cache = {
      config,
      store: createNodeStatsStore({
        stateRoot: join(paths.data_dir, 'workspaces', workspaceId),
        stats: config.stats,
        namespace: config.namespace,
      }),
    };
  }
  return profileHooks({
    selection: modules.selection,
    bindings: modules.bindings,
    model,
    ...(compact ? { compact } : {}),
    ...(cache ? { cache } : {}),
  });
}

interface RunSlot {
  native?: NativeWorkers;
  shell?: ShellTools;
}

/**
 * Runs the CLI; the private i-bridge of native workers (plugins, provider) and the shell's background processes are
 * stopped however the run ends.
 */
export async function runCli(io: CliIo): Promise<number> {
  const slot: RunSlot = {};
  try {
    return await runWith(io, slot);
  } finally {
    await slot.shell?.stopAll();
    await slot.native?.stop();
  }
}

async function runWith(io: CliIo, slot: RunSlot): Promise<number> {
  let json = io.argv.includes('--json');
  // Model text, tool names and output, and errors quoting a provider, plugin or config file are untrusted: none of
  // their control sequences may reach the terminal. NDJSON events stay exact JSON (without raw C1 or bidi
  // characters, which JSON.stringify leaves as they are); human-readable lines show controls escaped.
  // The last line is `done` or `error`: live output of a background command that outlives the turn is not printed.
  let ended = false;
  const emit = (e: JsonEvent) => {
    if (ended) return;
    if (e.type === 'done' || e.type === 'error') ended = true;
    io.stdout(`${stringifyForTerminal(e)}\n`);
  };
  const line = (text: string) => escapeControls(text, { keepLayout: false });
  const errorLine = (e: ErrorData) => io.stderr(`error ${line(e.code)}: ${line(e.message)}\n`);
  const fail = (error: ErrorData, code: number, stopReason: string | null = null) => {
    if (json) emit({ type: 'error', stop_reason: stopReason, error });
    else errorLine(error);
    return code;
  };

  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(io.argv);
  } catch (error) {
    return fail(cliErrorData(error, 'E_USAGE'), EXIT_USAGE);
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

  if (args.recover !== null) {
    try {
      io.stdout(await recoverNamed(io, args));
      return EXIT_OK;
    } catch (error) {
      return fail(cliErrorData(error, 'E_SESSION_FAILED'), EXIT_USAGE);
    }
  }

  if (args.changes || args.revert !== null) return runChangesCommand(io, args, () => resolveWorkspace(io, args), fail);

  if (args.prompt === '-') {
    // `-p -`: the prompt comes from standard input (a file, a heredoc, another command's output).
    try {
      if (!io.readStdin)
        throw new HarnessError(
          'E_USAGE',
          '-p - reads the prompt from standard input, which this caller does not provide. Pass the prompt text after -p.',
        );
      args.prompt = await io.readStdin();
    } catch (error) {
      return fail(cliErrorData(error, 'E_USAGE'), EXIT_USAGE);
    }
    if (args.prompt.trim() === '')
      return fail(
        {
          code: 'E_USAGE',
          message: 'The prompt from standard input (-p -) is empty. Pipe the question in, e.g. `echo "..." | i -p -`.',
        },
        EXIT_USAGE,
      );
  }

  let prep: Prepared;
  try {
    prep = await prepare(io, args);
  } catch (error) {
    return fail(cliErrorData(error, 'E_USAGE'), EXIT_USAGE);
  }
  const { config, budget, approval, workspace, apiKey } = prep;
  let native: NativeWorkers;
  try {
    native = slot.native = await startNativeWorkers({
      config,
      configFile: prep.configFile,
      workspace,
      env: io.env,
      bound: await loadBoundModules(resolveAppPaths(io.env).config_dir),
      ...(args.workspaceId !== null ? { workspaceId: checkExplicitWorkspaceId(args.workspaceId) } : {}),
    });
  } catch (error) {
    return fail(cliErrorData(error, 'E_CONFIG_INVALID'), EXIT_USAGE);
  }
  for (const w of native.warnings) io.stderr(`warning: ${line(w)}\n`);

  const hooks = new HookPipeline();
  let workspaceId: string;
  let fs;
  let modules: NodeModules;
  let systemPrompt: string;
  let profile: ProfileHooks;
  try {
    workspaceId = await runWorkspaceId(io, workspace, args.workspaceId); // the registry's UUID, shared with i-bridge
    // The workspace write policy for every writer of the run: .git refused unless --allow-git-writes.
    // blockingCalls: the CLI's event loop has little else to do while a tool runs (plugin-host/fs/node-read-file.ts).
    fs = protectWrites(await createNodeWorkspaceFs({ root: workspace, access: 'read-write', blockingCalls: true }), {
      allowGitWrites: args.allowGitWrites,
    });
    // The profile's modules from config_dir (plugins.json, bindings.json, web.json, skills.json, prompts.json);
    // memory under data_dir/workspaces/<workspace id>/. A bad file is a configuration error (exit 2).
    const paths = resolveAppPaths(io.env);
    modules = await loadNodeModules({ configDir: paths.config_dir, dataDir: paths.data_dir, fs, env: io.env });
    // `{{workspace}}` is the folder's real path here (the browser, without paths, uses the folder's name).
    systemPrompt = resolveSystemPrompt({
      workspace,
      ...(modules.systemPrompt !== undefined ? { replacement: modules.systemPrompt } : {}),
    });
    profile = await loadProfileHooks(
      paths,
      workspaceId,
      modules,
      wireModel(modelSettings(config, budget), modules),
      config,
      prep.configFile,
    );
  } catch (error) {
    return fail(cliErrorData(error, 'E_CONFIG_INVALID'), EXIT_USAGE);
  }
  // Budget, compaction and cache run as profile hooks for the whole run; the session's own hooks come later.
  for (const handler of profile.handlers) hooks.register(handler);
  for (const handler of native.hooks) hooks.register(handler); // manifest hooks after the profile modules

  let history: Message[] = [];
  let session;
  let checkpoints;
  if (args.sessionName !== null) {
    try {
      const store = createFileSessionStore({ root: join(workspace, '.i', 'sessions'), workspace, workspaceId });
      const opened = await openSessionForTurn(
        store,
        args.sessionName,
        hooks,
        io.signal,
        args.compact !== null ? {} : { createTitle: args.prompt!.slice(0, 80) },
      );
      history = opened.history;
      session = opened.sink;
      // Every file this turn's tools write or delete is recorded in the session folder (--changes, --revert).
      checkpoints = await headlessCheckpoints(workspace, args.sessionName, (text) =>
        io.stderr(`warning: ${line(text)}\n`),
      );
    } catch (error) {
      const e = cliErrorData(error, 'E_SESSION_FAILED');
      const folder = join(workspace, '.i', 'sessions', args.sessionName);
      // Only --compact opens without creating: there is nothing to compact in a session that does not exist.
      if (e.code === 'E_SESSION_NOT_FOUND')
        return fail(
          {
            ...e,
            message: `${e.message} --compact works on a saved session: check --session-name and -C (sessions are in ${join(workspace, '.i', 'sessions')}).`,
          },
          EXIT_USAGE,
        );
      // A store error from Node (a missing log.ndjson, a file where the folder should be) names no fix; add one.
      return fail(
        e.code === 'E_SESSION_FAILED'
          ? {
              ...e,
              message: `Cannot open the session "${args.sessionName}" at ${folder} (${e.message}). Move away what blocks it — a file where a folder of that path should be, or a session folder without log.ndjson (nothing was changed) — or choose another --session-name.`,
            }
          : e,
        EXIT_USAGE,
      );
    }
  }

  if (args.sessionFile !== null) {
    const file = resolve(io.cwd, args.sessionFile);
    try {
      ({ history, sink: session } = await openSessionForTurn(
        createSessionFileStore({ file, workspaceId, workspace }),
        file,
        hooks,
        io.signal,
        { createTitle: args.prompt!.slice(0, 80) },
      ));
    } catch (error) {
      return fail(cliErrorData(error, 'E_SESSION_FAILED'), EXIT_USAGE);
    }
    // Said every run: a session file keeps the conversation only (session-file.ts), unlike --session-name.
    io.stderr(
      `warning: ${line(`--session FILE keeps the conversation only: this run's file changes are not recorded for --changes/--revert, and long tool results can be paged back during this run only. Use --session-name NAME to keep both.`)}\n`,
    );
  }

  // Bounded tool-result views (seed 002): with a session, references last the session (its content/ folder, read
  // by later runs too); without one, the full text stays in memory for this run only.
  const results =
    args.sessionName !== null
      ? sessionResultViews({
          store: createFileContentStore({
            ...SESSION_RESULT_STORE_LIMITS,
            dir: join(workspace, '.i', 'sessions', args.sessionName, 'content'),
          }),
          sessionId: args.sessionName,
        })
      : turnResultViews({ store: createMemoryContentStore(RESULT_STORE_LIMITS), sessionId: `run-${process.pid}` });
  // The shell (issue 31): sandboxed unless --sandbox off; i's own folders are hidden from commands like ~/.ssh.
  const shell = (slot.shell = createNodeShell({
    workspace,
    sandbox: prep.shell.sandbox,
    ...(prep.shell.bwrap !== undefined ? { bwrap: prep.shell.bwrap } : {}),
    env: io.env,
    hide: Object.values(resolveAppPaths(io.env)),
    allowGitWrites: args.allowGitWrites,
    ...(json
      ? {
          onOutput: (o) =>
            emit({
              type: 'tool_output',
              id: o.callId,
              name: 'shell',
              delta: o.text,
              ...(o.background !== undefined ? { background: o.background } : {}),
              ...(o.cut ? { cut: true as const } : {}),
            }),
        }
      : {}),
  }));
  const tools = createHeadlessTools([...modules.tools, results.tool, ...shell.tools]);
  for (const tool of native.tools) {
    try {
      tools.register(tool);
    } catch (error) {
      io.stderr(`warning: ${line(toErrorData(error).message)}\n`); // a plugin tool may not shadow a built-in
    }
  }
  // provider.json + provider_operations (seed 003): images uploaded once and referenced by file_id, or base64.
  let files: ProviderFilesContext | null;
  let plans: PlanContext | null;
  try {
    const appPaths = resolveAppPaths(io.env);
    files = await headlessProviderFiles({
      configDir: appPaths.config_dir,
      dataDir: appPaths.data_dir,
      workspaceId,
      config,
      apiKey,
      ...(io.fetch ? { fetch: io.fetch } : {}),
    });
    plans = native.adapter
      ? await headlessOperationPlans({
          configDir: appPaths.config_dir,
          dataDir: appPaths.data_dir,
          workspaceId,
          config,
          apiKey,
          ...(io.fetch ? { fetch: io.fetch } : {}),
        })
      : null;
  } catch (error) {
    return fail(cliErrorData(error, 'E_CONFIG_INVALID'), EXIT_USAGE);
  }
  // A provider worker's operation plans run only under provider_operations (seed 003; without it they are refused).
  const streamOptions = {
    apiKeyName: config.api_key_env,
    getSecret: () => apiKey,
    ...(io.fetch ? { fetch: io.fetch } : {}),
    ...(native.adapter ? { adapter: native.adapter } : {}),
  };
  if (json)
    emit({
      type: 'start',
      version: 1,
      session: args.sessionName,
      protocol: config.protocol,
      model: config.model,
      workspace,
    });
  const stream = runTurn(
    {
      // The tool protocol only changes how requests carry tools and results (web/core/agent/json-actions).
      model: { ...wireModel(modelSettings(config, budget), modules), tool_protocol: config.tool_protocol },
      history,
      content: args.prompt ?? '',
      ...(args.compact !== null ? { compact: args.compact } : {}),
      systemPrompt,
      ...(args.maxSteps ? { maxSteps: args.maxSteps } : {}),
    },
    {
      stream: files || plans ? providerFilesStream({ ...streamOptions, files, plans }) : transportStream(streamOptions),
      tools,
      results,
      hooks,
      approval: approvalUnderProfile(approval, builtinModules(modules.selection, modules.bindings)),
      fs,
      workspaceId,
      context: () => modules.contextState(workspaceId),
      ...(session ? { session } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      ...(config.tool_view ? { toolView: groupedSelector(config.tool_view) } : {}),
      signal: io.signal,
    },
  );
  const present = (error: ErrorData) => headlessErrorData(error, config, prep.configFile);
  for await (const event of stream) {
    if (json) {
      const out = toJsonEvent(event);
      if (out?.type === 'error') emit({ ...out, error: present(out.error) });
      else if (out?.type === 'retry' && out.reason.startsWith('E_NETWORK:'))
        emit({ ...out, reason: `E_NETWORK: no answer from ${config.base_url}; trying again.` });
      else if (out) emit(out);
    } else if (event.type === 'tool-result') {
      io.stderr(`[${line(event.name)}] ${event.error ? `refused/failed: ${line(event.code ?? 'error')}` : 'ok'}\n`);
    } else if (event.type === 'compacted') {
      const c = event.compaction;
      const focus = c.focus ? ` Focus: ${line(c.focus)}.` : '';
      io.stdout(
        `Compacted the session "${args.sessionName}": ${c.folded_messages} messages (${c.folded_tool_results} tool results) folded into a summary, about ${c.tokens_before} → ${c.tokens_after} tokens.${focus}\n\n${escapeProse(event.summary)}\n`,
      );
    } else if (event.type === 'warning') {
      io.stderr(`warning ${line(event.error.code)}: ${line(event.error.message)}\n`);
    }
  }
  const result: TurnResult = await stream.result();
  if (!json) {
    // The answer keeps its newlines, tabs and the joiners scripts need; terminal controls and bidi overrides are
    // shown escaped (exact text: --json).
    const text = escapeProse(result.text);
    if (text) io.stdout(text.endsWith('\n') ? text : `${text}\n`);
    if (result.error) errorLine(present(result.error));
    else if (result.stopReason !== 'stop')
      errorLine({ code: 'E_TURN_INCOMPLETE', message: incompleteMessage(result.stopReason, config, prep.configFile) });
  }
  return result.stopReason === 'stop' && !result.error ? EXIT_OK : EXIT_TURN_FAILED;
}
