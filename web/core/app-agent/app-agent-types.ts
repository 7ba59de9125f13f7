// The app agent's public types (create-app-agent.ts builds it): its options, a turn's input and output, and the
// tool sources every workspace's agent consults.

import type { AgentEvent, TurnResult } from '../agent';
import type { AskPerson } from '../approval';
import type { ModelConfig } from '../config';
import type { WorkspaceFs } from '../contracts';
import type { HookPipeline } from '../hooks';
import type {
  Bindings,
  CacheConfig,
  CompactConfig,
  MemoryStore,
  ProfileSelection,
  StatsStore,
  WebFetchBackend,
} from '../modules';
import type { PluginService } from '../plugins';
import type { ContentPart, Message } from '../contracts';
import type { SessionInfo, SessionStore } from '../sessions';
import type { ConnectionReport } from '../smoke';
import type { HarnessDb } from '../storage';
import type { ToolDefinition } from '../contracts';
import type { TransportPorts } from '../transport';
import type { ContextBreakdown } from '../contracts';
import type { EventStream } from '../contracts';
import type { AgentSettings } from './agent-settings';
import type { TurnJournal } from './batch-journal';
import type { SkillWorkspaceOpener } from './skill-workspaces';
import type { AskWrite, ConnectedBridge } from './turn-extensions';
import type { createUndo } from './undo';

export interface ToolSource {
  name: string;
  tools(ctx: { workspaceId: string; fs: WorkspaceFs }): Promise<ToolDefinition[]> | ToolDefinition[];
}

/** Sources every app agent consults (registered once at app start, e.g. by the plugin or bridge client). */
export const globalToolSources = new Set<ToolSource>();

/** Adds a tool source for every workspace's agent; returns its removal. */
export function registerToolSource(source: ToolSource): () => void {
  globalToolSources.add(source);
  return () => void globalToolSources.delete(source);
}

export interface AppAgentOptions {
  db: HarnessDb;
  workspaceId: string;
  fs: WorkspaceFs;
  /** Opens another workspace read-only for its skills (tests); default: the IndexedDB registry's handles. */
  openSkillWorkspace?: SkillWorkspaceOpener;
  /** The approval card. Absent: every call that needs approval is refused. */
  askPerson?: AskPerson;
  fetch?: typeof fetch;
  /** Defaults to the paired i-bridge (web/core/bridge-client) for providers routed through it. */
  getBridge?: TransportPorts['getBridge'];
  /** Hook handlers of the profile modules; a fresh empty pipeline by default. The bridge's hooks are added per turn. */
  hooks?: HookPipeline;
  /** Defaults to the built-in tools of the default profile, with web_fetch when the turn has a backend (the bridge). */
  baseTools?: (extras: { webFetch?: WebFetchBackend }) => ToolDefinition[];
  /**
   * The plugin runtime whose enabled plugins become tools (pinned per turn). Defaults to the app's shared service
   * (web/core/plugins `sharedPluginService`); null offers no plugin tools.
   */
  plugins?: PluginService | null;
  /** The paired bridge (tools, web_fetch, hooks). Defaults to the saved connection; null offers none. */
  bridge?: (() => Promise<ConnectedBridge | undefined>) | null;
  /** The card for each fs.write of a plugin tool in approval mode 'ask'. Absent: such writes are denied. */
  askWrite?: AskWrite;
  /** A stored replacement of the system prompt (1–32000 characters, `{{workspace}}` = the folder's name). */
  systemPrompt?: string;
  store?: SessionStore;
  /** The profile (seed 000 §1): which modules run. Defaults to the one stored in Settings → Agent (read per turn). */
  selection?: ProfileSelection;
  /** Modules bound to bridge workers (they contribute no built-in tools or hooks). Default: Settings → Agent's. */
  bindings?: Bindings;
  /** The workspace memory (memory tools and snapshot). Defaults to IndexedDB `memory`; null turns memory off. */
  memory?: MemoryStore | null;
  /** compact.json for the app; defaults to the stored Settings → Agent (keep_recent 4 with the embedded prompt). */
  compact?: { config: CompactConfig; promptText?: string };
  /** cache.json for the app; defaults to the stored Settings → Agent (`observe`). Statistics go to IndexedDB `metrics` unless `cacheStats` is given. */
  cache?: CacheConfig;
  cacheStats?: StatsStore;
}

export interface StartTurn {
  /** null starts a new session titled after the prompt. */
  sessionId: string | null;
  content: string | ContentPart[];
  signal: AbortSignal;
  /** This turn's model name instead of the configured one (the model switcher); the assistant messages record it. */
  model?: string;
  /** A compaction-only turn (`/compact [focus]`): `content` is ignored, nothing is asked of the model but the summary. */
  compact?: { focus?: string };
}

export interface RunningTurn {
  session: SessionInfo;
  /** Agent events, plus `{type:'warning'}` for a tool source that failed; `result()` is the TurnResult. */
  events: EventStream<AgentEvent, TurnResult>;
}

export interface AppAgent {
  readonly store: SessionStore;
  readonly workspaceId: string;
  /** Adds a tool source to this agent only; returns its removal. Duplicate names are reported as warnings, never replace a tool. */
  registerToolSource(source: ToolSource): () => void;
  settings(): Promise<AgentSettings>;
  startTurn(turn: StartTurn): Promise<RunningTurn>;
  /** Rewinds the session to `messages` (the history before a failed turn) as a new checkpoint, then starts it again. */
  retryTurn(turn: StartTurn & { sessionId: string; before: Message[] }): Promise<RunningTurn>;
  testConnection(config: ModelConfig, signal?: AbortSignal): Promise<ConnectionReport>;
  /** What was in flight when the page last closed mid-turn, or null. */
  interrupted(sessionId: string): Promise<TurnJournal | null>;
  dismissInterrupted(sessionId: string): Promise<void>;
  /** The next request of a session (null: a new one), part by part, against the configured model's window. */
  contextBreakdown(sessionId: string | null): Promise<ContextBreakdown>;
  /** What the session's turns changed, and reverts and rewinds over it (issue 16, undo.ts). */
  readonly undo: ReturnType<typeof createUndo>;
}
