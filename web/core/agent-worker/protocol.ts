// The one interface between the page (UI) and the agent Worker: what the page may ask, and the callbacks the Worker
// calls back on (events, approvals, lock changes). Everything crossing it is structured-cloneable plain data;
// errors cross as {code, message, data} (installErrorTransfer, on both sides).
import { transferHandlers } from 'comlink';
import type { AgentEvent, TurnResult } from '../agent';
import type { ApprovalRequest, AskPerson } from '../approval';
import type { AgentSettings, PluginWriteRequest, TurnJournal } from '../app-agent';
import type { FileVersions, RevertOp, RewindMode, RewindResult, SessionChanges } from '../app-agent';
import type { RevertResult } from '../checkpoints';
import { HarnessError } from '../contracts';
import type { WorkspaceAccess } from '../contracts';
import type { ContentPart, Message } from '../contracts';
import type { SessionStore } from '../sessions';
import type { ContextBreakdown, PriceTable, UsageTotals } from '../contracts';
import type { WorkspaceUsage } from './usage-queries';

/** What the Worker needs to open a workspace: its record's plain fields and the folder handle the page holds permission for. */
export interface WorkspaceTicket {
  id: string;
  /** The name the agent is told (the folder's or the private workspace's). */
  rootName: string;
  access: WorkspaceAccess;
  handle: FileSystemDirectoryHandle;
}

export type AskAnswer = Awaited<ReturnType<AskPerson>>;

/** Callbacks of one turn (comlink proxies of page functions). */
export interface TurnPorts {
  /** Agent events in order, batched (at most one call per frame for streamed text). */
  events(batch: AgentEvent[]): void;
  end(result: TurnResult): void;
  ask(askId: number, request: ApprovalRequest): Promise<AskAnswer>;
  askWrite(askId: number, request: PluginWriteRequest): Promise<boolean>;
  /** The turn no longer waits for this answer (stopped): the card goes away. */
  cancelAsk(askId: number): void;
}

export interface TurnRequest {
  workspaceId: string;
  /** null: a new session (its id is made in the Worker, titled after the prompt). */
  sessionId: string | null;
  content: string | ContentPart[];
  /** Retry: the session is first rewound to these messages (the history before the failed turn). */
  before?: Message[];
  /** The model name for this turn, replacing the configured one (the composer's model switcher). */
  model?: string;
  /** A compaction-only turn (`/compact [focus]`): `content` is ignored. */
  compact?: { focus?: string };
}

export interface StartedTurn {
  turnId: number;
  session: { id: string; title: string };
}

/** Whether this tab may write a session: 'writer' holds its lock; 'reader' follows another tab's writing. */
export type SessionRole = 'writer' | 'reader';

type StoreMethods = {
  [K in keyof SessionStore]: SessionStore[K] extends (...args: infer A) => Promise<infer R>
    ? (...args: A) => Promise<R>
    : never;
};
export type StoreMethod = Exclude<keyof StoreMethods, 'workspaceId'>;

export interface AgentHostApi {
  /** Once per Worker: the database name (tests use their own) and where lock changes are reported. */
  init(options: { dbName?: string }, onRoleChange: (sessionId: string, role: SessionRole) => void): Promise<void>;
  /** Opens (or replaces) the agent of a workspace over the given folder. */
  attach(ticket: WorkspaceTicket): Promise<void>;
  detach(workspaceId: string): Promise<void>;
  settings(workspaceId: string): Promise<AgentSettings>;
  /** The models the configured provider lists (GET …/models), for the model switcher. */
  listModels(workspaceId: string): Promise<string[]>;
  startTurn(request: TurnRequest, ports: TurnPorts): Promise<StartedTurn>;
  stopTurn(turnId: number): void;
  interrupted(workspaceId: string, sessionId: string): Promise<TurnJournal | null>;
  dismissInterrupted(workspaceId: string, sessionId: string): Promise<void>;
  /** The session store of a workspace; writes need this tab to be (or become) the session's writer. */
  store<M extends StoreMethod>(
    workspaceId: string,
    method: M,
    args: Parameters<StoreMethods[M]>,
  ): Promise<Awaited<ReturnType<StoreMethods[M]>>>;
  /** Claims the session for writing: 'reader' when another tab holds it (unless `steal`, which takes it over). */
  claim(sessionId: string, options?: { steal?: boolean }): Promise<SessionRole>;
  release(sessionId: string): Promise<void>;
  /** The next request of a session (null: a new one), part by part (the context meter and `/context`). */
  contextBreakdown(workspaceId: string, sessionId: string | null): Promise<ContextBreakdown>;
  /** The original messages one compaction folded, read from the session log. */
  foldedMessages(workspaceId: string, sessionId: string, compactionId: string): Promise<Message[]>;
  /** Every model call of the session's log (folded and rewound ones included), priced with the current table. */
  sessionUsage(workspaceId: string, sessionId: string): Promise<UsageTotals>;
  /** The workspace's totals per session and its prompt-cache statistics (Settings → Usage). */
  workspaceUsage(workspaceId: string): Promise<WorkspaceUsage>;
  /** The price table in force (global settings), null when the person set none. */
  prices(): Promise<PriceTable | null>;
  /** Undo (issue 16): what a session changed, one file's versions, reverts and rewinds. Writes need the session's lock. */
  changes(workspaceId: string, sessionId: string): Promise<SessionChanges>;
  fileVersions(workspaceId: string, sessionId: string, path: string): Promise<FileVersions>;
  revert(workspaceId: string, sessionId: string, op: RevertOp, force?: boolean): Promise<RevertResult>;
  /** One hunk put back: the file set to `content` (the page computed it), if it still holds `expectedSha`. */
  revertPart(
    workspaceId: string,
    sessionId: string,
    path: string,
    content: string,
    expectedSha: string,
  ): Promise<RevertResult>;
  rewind(
    workspaceId: string,
    sessionId: string,
    messageIndex: number,
    mode: RewindMode,
    force?: boolean,
  ): Promise<RewindResult>;
}

let installed = false;
/** Errors keep their code and data across the boundary (comlink's default keeps only name and message). */
export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const base = transferHandlers.get('throw');
  if (!base) return;
  transferHandlers.set('throw', {
    canHandle: base.canHandle,
    serialize(thrown: unknown) {
      const value = (thrown as { value: unknown }).value;
      const e = value as { code?: unknown; message?: unknown; data?: unknown; name?: unknown };
      const plain =
        typeof e === 'object' && e !== null
          ? {
              code: typeof e.code === 'string' ? e.code : undefined,
              message: String(e.message ?? ''),
              data: e.data,
              name: String(e.name ?? 'Error'),
            }
          : { message: String(value) };
      return [{ plain }, []];
    },
    deserialize(serialized: unknown) {
      const { plain } = serialized as { plain: { code?: string; message: string; data?: unknown; name?: string } };
      if (plain.code)
        throw new HarnessError(plain.code, plain.message, plain.data as Record<string, unknown> | undefined);
      throw Object.assign(new Error(plain.message), plain.name ? { name: plain.name } : {});
    },
  });
}
