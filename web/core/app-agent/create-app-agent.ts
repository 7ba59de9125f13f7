// The agent as the browser app runs it: the loop (web/core/agent) over the provider transport, the built-in tools
// plus any registered tool sources (plugins, bridge), the IndexedDB session store, the person's approval port and
// the settings/secrets of web/core. Framework-free: the UI consumes `AgentEvent`s; Node tests drive it with
// fake-indexeddb and the scripted model server.
import {
  openSessionForTurn,
  SESSION_RESULT_STORE_LIMITS,
  runTurn,
  sessionResultViews,
  transportStream,
} from '../agent';
import { profileHooks, type ProfileHooks } from '../agent';
import type { AgentEvent, ModelSettings, TurnResult } from '../agent';
import { budgetOf } from '../agent';
import type { ModelConfig } from '../config';
import { HarnessError, toErrorData, type ErrorData } from '../contracts';
import { protectWrites, type WorkspaceFs } from '../contracts';
import { HookPipeline } from '../hooks';
import { createIdbSessionContentStore } from '../context';
import { createIdbCheckpointStore, startTurnCheckpoints } from '../checkpoints';
import {
  approvalUnderProfile,
  builtinModules,
  builtinTools,
  checkProfileConfig,
  createIdbMemoryStore,
  createIdbStatsStore,
  moduleContext,
  resolveSystemPrompt,
  withWireProtocol,
} from '../modules';
import { createIdbSessionStore } from '../sessions';
import { getSecret, readWorkspaceSettings } from '../settings';
import { appFilesStream } from './provider-files-app';
import { ToolRegistry } from '../tools';
import { appSmokeStats, testConnection } from '../smoke';
import { browserModelStream, isBrowserModel, testBrowserModel, withLoadedWindow } from './browser-model';
import type { TransportPorts } from '../transport';
import { EventStream } from '../contracts';
import { readAgentSettings, type AgentModules, type AgentSettings } from './agent-settings';
import { toolViewDeps } from './tool-view-settings';
import { pairedBridge } from './bridge-endpoint';
import { appProviderAdapter, connectedBridge } from '../bridge-client';
import { clearJournal, readJournal, trackJournal, writeJournal, type TurnJournal } from './batch-journal';
import type { TurnExtensions } from './turn-extensions';
import { checkpointNote, nextRequestBreakdown, sourcedTools } from './context-view';
import { createUndo } from './undo';
import { checkBridgeServes } from './app-bindings';
import { checkpointUpkeep } from './checkpoint-upkeep';
import { idbSkillWorkspaceOpener, skillCatalogWith } from './skill-workspaces';
import type { ContextBreakdown } from '../contracts';

/** Extra tools (plugins, bridge workers, MCP): asked for their current list at the start of every turn. */
import {
  globalToolSources,
  type AppAgent,
  type AppAgentOptions,
  type RunningTurn,
  type StartTurn,
  type ToolSource,
} from './app-agent-types';
import { approvalSettingsOf, modelSettingsOf, titleOf } from './turn-settings';
export {
  registerToolSource,
  type AppAgent,
  type AppAgentOptions,
  type RunningTurn,
  type StartTurn,
  type ToolSource,
} from './app-agent-types';
export { approvalSettingsOf, modelSettingsOf } from './turn-settings';

export function createAppAgent(options: AppAgentOptions): AppAgent {
  const { db, workspaceId } = options;
  const store = options.store ?? createIdbSessionStore(db, workspaceId);
  const sources = new Set<ToolSource>();
  const memory = options.memory === null ? undefined : (options.memory ?? createIdbMemoryStore(db));
  /** Other workspaces lending their skills (Settings → Agent → Skills), as read at the latest turn start. */
  let skillWorkspaces: readonly string[] = [];
  const openSkills = options.openSkillWorkspace ?? idbSkillWorkspaceOpener(db);
  const skills = () => skillCatalogWith(options.fs, workspaceId, skillWorkspaces, openSkills);
  /** Settings → Agent (read at each turn start); explicit options win. */
  const modulesOf = (stored: AgentModules) => ({
    selection: options.selection ?? stored.selection,
    compact: options.compact ?? {
      config: stored.compact,
      ...(stored.compactPrompt !== null ? { promptText: stored.compactPrompt } : {}),
    },
    cache: options.cache ?? stored.cache,
    webSearch: stored.webSearch,
    bindings: options.bindings ?? stored.bindings,
    systemPrompt: options.systemPrompt ?? stored.systemPrompt ?? undefined,
  });
  /** Long tool results, readable with read_result for the whole session (IndexedDB `content`, per session). */
  const resultViews = (sessionId: string) =>
    sessionResultViews({
      store: createIdbSessionContentStore(db, { workspaceId, sessionId, ...SESSION_RESULT_STORE_LIMITS }),
      sessionId,
    });
  /** What every file was before the agent changed it (undo, issue 16): IndexedDB, capped per workspace. */
  const checkpointStore = createIdbCheckpointStore(db, workspaceId);
  const tidyCheckpoints = checkpointUpkeep(checkpointStore, store);
  /** The tool schemas (by source) of the latest turn, for the context breakdown. */
  let lastTools: { at: number; tools: () => ReturnType<typeof sourcedTools> } | undefined;
  /** The profile's budget/compact/cache hooks, kept while the model settings stay the same so usage anchors carry over turns. */
  let profile: { key: string; hooks: ProfileHooks } | undefined;
  const profileFor = (model: ModelSettings, m: ReturnType<typeof modulesOf>): ProfileHooks => {
    const key = JSON.stringify([model, m.selection, m.compact, m.cache, m.bindings]);
    if (profile?.key !== key) {
      const store = options.cacheStats ?? createIdbStatsStore(db, { workspaceId, namespace: m.cache.namespace });
      profile = {
        key,
        hooks: profileHooks({
          selection: m.selection,
          bindings: m.bindings,
          model,
          compact: m.compact,
          cache: { config: m.cache, store },
        }),
      };
    }
    return profile.hooks;
  };
  const ports: TransportPorts = {
    getSecret: (name) => getSecret(db, name),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    getBridge: options.getBridge ?? (() => pairedBridge(db)),
  };

  /** A custom protocol (or a `{worker}` binding) runs on the paired bridge's provider worker; built-ins: `{}`. */
  const adapterOf = (config: ModelConfig) => {
    if (isBrowserModel(config)) return {};
    const adapter = appProviderAdapter(
      config,
      options.bridge !== undefined
        ? options.bridge
        : () => connectedBridge(db, options.fetch ? { fetch: options.fetch } : {}),
      workspaceId,
    );
    return adapter ? { adapter } : {};
  };

  /** Plugins and bridge, from a lazily loaded chunk (the plugin runtime is not needed to show the chat). */
  async function extensionsForTurn(settings: AgentSettings, signal: AbortSignal): Promise<TurnExtensions> {
    const { turnExtensions } = await import('./turn-extensions');
    const plugins =
      options.plugins !== undefined ? options.plugins : (await import('../plugins')).sharedPluginService(db);
    const bridge =
      options.bridge !== undefined
        ? options.bridge
        : async () =>
            (await import('../bridge-client')).connectedBridge(db, options.fetch ? { fetch: options.fetch } : {});
    const rules = approvalSettingsOf(settings.approval, settings.rules).rules;
    return turnExtensions({
      workspaceId,
      approval: settings.approval,
      plugins,
      bridge,
      ...(options.askWrite ? { askWrite: options.askWrite } : {}),
      ...(rules ? { rules } : {}),
      signal,
    });
  }

  async function toolsForTurn(
    extensions: TurnExtensions,
    { selection, webSearch, bindings }: ReturnType<typeof modulesOf>,
    warnings: ErrorData[],
    fs: WorkspaceFs,
  ): Promise<ToolRegistry> {
    const registry = new ToolRegistry();
    const extras = extensions.webFetch ? { webFetch: extensions.webFetch } : {};
    // web_search from Settings → Agent: its credential is a secret name, looked up in the secrets store per search.
    const search = webSearch
      ? { webSearch: { config: webSearch, getSecret: (name: string) => getSecret(db, name) } }
      : {};
    const base =
      options.baseTools ??
      ((x) => builtinTools({ selection, bindings, ...(memory ? { memory } : {}), skills, ...search, ...x }));
    for (const tool of base(extras)) registry.register(tool);
    for (const tool of extensions.tools) {
      try {
        registry.register(tool);
      } catch (error) {
        warnings.push(toErrorData(error));
      }
    }
    for (const source of [...globalToolSources, ...sources]) {
      try {
        for (const tool of await source.tools({ workspaceId, fs })) {
          try {
            registry.register(tool);
          } catch (error) {
            warnings.push(toErrorData(error));
          }
        }
      } catch (error) {
        const e = toErrorData(error, 'E_TOOL_SOURCE_FAILED');
        warnings.push({
          code: 'E_TOOL_SOURCE_FAILED',
          message: `The tools of ${source.name} are unavailable this turn: ${e.message}`,
          data: { source: source.name },
        });
      }
    }
    return registry;
  }

  async function modelOrThrow(settings: AgentSettings): Promise<ModelConfig> {
    if (settings.modulesError) {
      throw new HarnessError(
        settings.modulesError.code,
        `The saved agent settings are invalid: ${settings.modulesError.message} Fix them in Settings → Agent.`,
        { scope: settings.modulesScope },
      );
    }
    if (settings.rulesError) {
      throw new HarnessError(
        settings.rulesError.code,
        `The saved approval rules are invalid: ${settings.rulesError.message} Fix them in Settings → Agent.`,
      );
    }
    if (settings.modelError) {
      throw new HarnessError(
        settings.modelError.code,
        `The saved model settings are invalid: ${settings.modelError.message} Fix them in Settings → Model.`,
      );
    }
    const model = settings.model?.config;
    if (!model)
      throw new HarnessError(
        'E_MODEL_NOT_CONFIGURED',
        'No model is configured yet. Open Settings → Model, choose a provider and save.',
      );
    adapterOf(model); // an {"exec"} provider binding is refused here, before anything runs
    if (model.api_key_env && !(await getSecret(db, model.api_key_env))) {
      throw new HarnessError(
        'E_API_KEY_MISSING',
        `The API key "${model.api_key_env}" is not in the secrets store. Enter the key in Settings → Model (or Settings → Keys) and try again.`,
        { name: model.api_key_env },
      );
    }
    return model;
  }

  async function startTurn(turn: StartTurn): Promise<RunningTurn> {
    const settings = await readAgentSettings(db, workspaceId);
    skillWorkspaces = settings.modules.skillWorkspaces;
    const configured = await modelOrThrow(settings);
    const model = await withLoadedWindow(turn.model ? { ...configured, model: turn.model } : configured); // browser: the budget counts the loaded window
    // Every writer of this turn (built-in tools, plugin fs.write, tool sources) gets the workspace write policy:
    // .git refused unless this workspace allows it, read at turn start like the other settings.
    const fs = protectWrites(options.fs, {
      allowGitWrites: (await readWorkspaceSettings(db, workspaceId)).allowGitWrites === true,
    });
    const hooks = options.hooks ?? new HookPipeline();
    const extensions = await extensionsForTurn(settings, turn.signal);
    const warnings: ErrorData[] = [...extensions.warnings];
    // The bridge's hooks run after the profile modules (the pipeline orders by source) for this turn only.
    const unhook: (() => void)[] = [];
    const modules = modulesOf(settings.modules);
    const active = builtinModules(modules.selection, modules.bindings);
    // `responses` sends protocol openai to the Responses API; `approval` off leaves the bare gate (module-effects.ts).
    const modelSettings = withWireProtocol(modelSettingsOf(model), active);
    // Seed 000 §7 / 003: a profile that meters or compacts needs the model's window (no silent skip), and protocol
    // "responses" with the old responses hook would encode twice; the turn refuses to start, naming where to fix it.
    checkProfileConfig(model, active, modules.compact.config.enabled, 'Settings → Model');
    checkBridgeServes(modules.selection, modules.bindings, extensions); // a bound module runs on the bridge or not at all
    // A stored replacement prompt is checked (1–32000 characters) before anything is registered or opened.
    const systemPrompt =
      modules.systemPrompt !== undefined
        ? resolveSystemPrompt({ workspace: options.fs.rootName, replacement: modules.systemPrompt })
        : undefined;
    // The profile's budget/compact/cache modules first (registered for this turn), then the bridge's hooks.
    for (const handler of [...profileFor(modelSettings, modules).handlers, ...extensions.hooks]) {
      try {
        unhook.push(hooks.register(handler));
      } catch (error) {
        warnings.push(toErrorData(error));
      }
    }
    const release = () => unhook.splice(0).forEach((f) => f());
    let opened: Awaited<ReturnType<typeof openSessionForTurn>>;
    try {
      opened = await openSessionForTurn(store, turn.sessionId ?? crypto.randomUUID(), hooks, turn.signal, {
        createTitle: titleOf(turn.content),
      });
    } catch (error) {
      release();
      throw error;
    }
    const tools = await toolsForTurn(extensions, modules, warnings, fs);
    await tidyCheckpoints(); // once per agent: deleted sessions' undo records, orphan contents (checkpoint-upkeep.ts)
    // Settings → Agent → Tools the agent sees (seed 002 tool view), read once for the request and the breakdown; a
    // damaged one is a selector that refuses, so the loop stops before any request.
    const { toolView } = await toolViewDeps(db, workspaceId);
    lastTools = { at: Date.now(), tools: () => sourcedTools(tools, toolView) };
    const contextState = moduleContext({
      selection: modules.selection,
      bindings: modules.bindings,
      ...(memory ? { memory } : {}),
      skills,
    });
    // Long results reach the model as a preview + reference into IndexedDB `content`, readable for the whole session.
    const views = resultViews(opened.info.id);
    try {
      tools.register(views.tool);
    } catch (error) {
      warnings.push(toErrorData(error));
    }
    const journal: TurnJournal = {
      sessionId: opened.info.id,
      prompt: typeof turn.content === 'string' ? turn.content : titleOf(turn.content),
      startedAt: Date.now(),
      step: 0,
      calls: [],
    };
    await writeJournal(db, workspaceId, journal).catch((error: unknown) => {
      release();
      throw error;
    });
    const events = new EventStream<AgentEvent, TurnResult>();
    const turnId = crypto.randomUUID();
    const streamOptions = {
      ...ports,
      apiKeyName: model.api_key_env,
      route: model.route ?? 'direct',
      ...adapterOf(model),
    };
    const files = isBrowserModel(model) ? null : await appFilesStream(db, workspaceId, model, streamOptions); // provider Files (seed 003)
    const inner = runTurn(
      {
        model: modelSettings,
        history: opened.history,
        content: turn.content,
        turnId,
        keepFailedPrompt: true, // the chat shows it with its error and Retry, also after a reload
        ...(systemPrompt !== undefined ? { systemPrompt } : {}),
        ...(turn.compact ? { compact: turn.compact } : {}),
      },
      {
        stream: isBrowserModel(model) ? browserModelStream(model) : (files ?? transportStream(streamOptions)),
        tools,
        hooks,
        approval: approvalUnderProfile(
          { ...approvalSettingsOf(settings.approval, settings.rules), deny_tools: settings.modules.denyTools },
          active,
        ),
        ...(options.askPerson ? { askPerson: options.askPerson } : {}),
        fs,
        workspaceId,
        context: () => contextState(workspaceId),
        results: views,
        checkpoints: await startTurnCheckpoints({
          store: checkpointStore,
          session: opened.info.id,
          turnId,
          onEvent: (e) => checkpointNote(e, (error) => events.push({ type: 'warning', step: 0, error })),
        }),
        session: opened.sink,
        ...(toolView ? { toolView } : {}),
        signal: turn.signal,
      },
    );
    void (async () => {
      for (const error of warnings) events.push({ type: 'warning', step: 0, error });
      let result: TurnResult;
      try {
        for await (const event of inner) {
          await trackJournal(db, workspaceId, journal, event);
          events.push(event);
        }
        result = await inner.result();
        await clearJournal(db, workspaceId, journal.sessionId).catch(() => undefined);
      } catch (error) {
        // runTurn never throws; a journal write failing (storage gone) ends the stream the same way.
        result = {
          stopReason: 'error',
          messages: [],
          text: '',
          steps: journal.step,
          toolCalls: [],
          usage: {},
          error: toErrorData(error, 'E_TURN_FAILED'),
        };
      }
      release();
      events.end(result);
    })();
    return { session: opened.info, events };
  }

  return {
    store,
    workspaceId,
    registerToolSource(source) {
      sources.add(source);
      return () => void sources.delete(source);
    },
    settings: () => readAgentSettings(db, workspaceId),
    startTurn,
    async retryTurn(turn) {
      const info = await store.get(turn.sessionId);
      if (!info)
        throw new HarnessError(
          'E_SESSION_NOT_FOUND',
          'The session of this turn no longer exists. Start a new session.',
        );
      const loaded = await store.load(turn.sessionId);
      if (loaded.messages.length !== turn.before.length)
        await store.commit(turn.sessionId, [{ kind: 'reset', messages: turn.before }], info.checkpointSeq);
      return startTurn(turn);
    },
    testConnection: (config, signal) =>
      isBrowserModel(config)
        ? testBrowserModel(config, signal)
        : testConnection(
            {
              protocol: config.protocol,
              base_url: config.base_url,
              model: config.model,
              api_key_env: config.api_key_env,
              use_max_tokens: config.use_max_tokens,
              extra_body: config.extra_body,
              route: config.route ?? 'direct',
              ...adapterOf(config),
            },
            { ...ports, stats: appSmokeStats(db), ...(signal ? { signal } : {}) },
          ),
    interrupted: (sessionId) => readJournal(db, workspaceId, sessionId),
    dismissInterrupted: (sessionId) => clearJournal(db, workspaceId, sessionId),
    contextBreakdown,
    // Reverts write only paths the session's tools wrote (each passed the write policy then), so they use the
    // workspace as it is: a revert is the person's act, not the agent's.
    undo: createUndo({ checkpoints: checkpointStore, sessions: store, fs: () => options.fs }),
  };

  async function contextBreakdown(sessionId: string | null): Promise<ContextBreakdown> {
    const settings = await readAgentSettings(db, workspaceId);
    skillWorkspaces = settings.modules.skillWorkspaces;
    const modules = modulesOf(settings.modules);
    const config = settings.model?.config;
    // The tools the last turn offered; before any turn (or a minute after it), the tools a turn would offer now.
    if (!lastTools || Date.now() - lastTools.at > 60_000) {
      const extensions = await extensionsForTurn(settings, AbortSignal.timeout(5_000));
      const registry = await toolsForTurn(extensions, modules, [], options.fs);
      registry.register(resultViews(sessionId ?? 'new').tool);
      const { toolView } = await toolViewDeps(db, workspaceId);
      lastTools = { at: Date.now(), tools: () => sourcedTools(registry, toolView) };
    }
    const history = sessionId ? (await store.load(sessionId)).messages : [];
    const contextState = moduleContext({
      selection: modules.selection,
      bindings: modules.bindings,
      ...(memory ? { memory } : {}),
      skills,
    });
    return nextRequestBreakdown({
      history,
      fs: options.fs,
      ...(modules.systemPrompt !== undefined ? { systemPrompt: modules.systemPrompt } : {}),
      context: () => contextState(workspaceId),
      tools: lastTools.tools(),
      budget: config ? budgetOf(config) : null,
      keepRecent: modules.compact.config.keep_recent,
    });
  }
}
