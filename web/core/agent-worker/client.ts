// The page side of the agent Worker: one Worker per tab (started on first use), and per workspace a RemoteAgent
// with the AppAgent shape the chat uses. Turns come back as the same EventStream; approvals arrive as calls of the
// page's askPerson/askWrite with an AbortSignal that fires when the Worker stops waiting.
import { proxy, wrap, type Remote } from 'comlink';
import type { AgentEvent, TurnResult } from '../agent';
import type { AskPerson } from '../approval';
import type { AgentSettings, AskWrite, TurnJournal } from '../app-agent';
import { HarnessError, type ErrorData } from '../contracts';
import type { ContentPart, Message } from '../contracts';
import type { SessionInfo, SessionStore } from '../sessions';
import type { ContextBreakdown, PriceTable, UsageTotals } from '../contracts';
import type { WorkspaceUsage } from './usage-queries';
import type { FileVersions, RevertOp, RewindMode, RewindResult, SessionChanges } from '../app-agent';
import type { RevertResult } from '../checkpoints';
import { EventStream } from '../contracts';
import { getWorkspace, workspaceDirectory } from '../workspaces';
import type { HarnessDb } from '../storage';
import {
  installErrorTransfer,
  type AgentHostApi,
  type SessionRole,
  type StoreMethod,
  type WorkspaceTicket,
} from './protocol';

type Host = Remote<AgentHostApi>;
const roleListeners = new Set<(sessionId: string, role: SessionRole) => void>();
let shared: { dbName: string; host: Promise<Host> } | undefined;
/** Turns in flight on this page: ended with E_AGENT_WORKER_FAILED if the Worker dies under them. */
const inFlight = new Set<(error: ErrorData) => void>();

/**
 * The tab's agent Worker, started once. One that fails to load rejects with E_AGENT_WORKER_FAILED; one that dies
 * later ends the turns in flight with that code, and the next call starts a new Worker.
 */
export function agentWorker(dbName: string): Promise<Host> {
  if (shared && shared.dbName === dbName) return shared.host;
  installErrorTransfer();
  const host = new Promise<Host>((resolve, reject) => {
    const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'agent' });
    let started = false;
    const failed = (event: Event) => {
      const detail =
        (event as ErrorEvent).message ||
        (event.type === 'messageerror' ? 'a message could not be read' : 'its script did not load');
      const error = new HarnessError(
        'E_AGENT_WORKER_FAILED',
        started
          ? `The agent stopped working in this tab (${detail}). Send the message again; if it keeps happening, reload the page.`
          : `The agent could not start in this tab (${detail}). Reload the page.`,
      );
      if (shared?.host === host) shared = undefined;
      worker.terminate();
      for (const end of [...inFlight]) end(error.toJSON());
      reject(error);
    };
    worker.addEventListener('error', failed);
    worker.addEventListener('messageerror', failed);
    const remote = wrap<AgentHostApi>(worker);
    remote
      .init(
        { dbName },
        proxy((sessionId: string, role: SessionRole) => roleListeners.forEach((l) => l(sessionId, role))),
      )
      .then(() => {
        started = true;
        resolve(remote);
      }, reject);
  });
  shared = { dbName, host };
  return host;
}

/** Called when another tab takes over a session this tab was writing. */
export function onSessionRole(listener: (sessionId: string, role: SessionRole) => void): () => void {
  roleListeners.add(listener);
  return () => void roleListeners.delete(listener);
}

export interface RemoteTurn {
  sessionId: string | null;
  content: string | ContentPart[];
  signal: AbortSignal;
  before?: Message[];
  model?: string;
  /** A compaction-only turn (`/compact [focus]`). */
  compact?: { focus?: string };
}

export interface RemoteAgent {
  readonly workspaceId: string;
  /** The session store, in the Worker: reads answer from IndexedDB there, writes need this tab to be the session's writer. */
  readonly store: SessionStore;
  settings(): Promise<AgentSettings>;
  listModels(): Promise<string[]>;
  startTurn(
    turn: RemoteTurn,
  ): Promise<{ session: Pick<SessionInfo, 'id' | 'title'>; events: EventStream<AgentEvent, TurnResult> }>;
  interrupted(sessionId: string): Promise<TurnJournal | null>;
  dismissInterrupted(sessionId: string): Promise<void>;
  claim(sessionId: string, options?: { steal?: boolean }): Promise<SessionRole>;
  release(sessionId: string): Promise<void>;
  contextBreakdown(sessionId: string | null): Promise<ContextBreakdown>;
  foldedMessages(sessionId: string, compactionId: string): Promise<Message[]>;
  sessionUsage(sessionId: string): Promise<UsageTotals>;
  prices(): Promise<PriceTable | null>;
  changes(sessionId: string): Promise<SessionChanges>;
  fileVersions(sessionId: string, path: string): Promise<FileVersions>;
  revert(sessionId: string, op: RevertOp, force?: boolean): Promise<RevertResult>;
  revertPart(sessionId: string, path: string, content: string, expectedSha: string): Promise<RevertResult>;
  rewind(sessionId: string, messageIndex: number, mode: RewindMode, force?: boolean): Promise<RewindResult>;
}

const failedResult = (error: ErrorData): TurnResult => ({
  stopReason: 'error',
  messages: [],
  text: '',
  steps: 0,
  toolCalls: [],
  usage: {},
  error,
});

async function ticketOf(db: HarnessDb, workspaceId: string): Promise<WorkspaceTicket> {
  const record = await getWorkspace(db, workspaceId);
  if (!record)
    throw new HarnessError(
      'E_WORKSPACE_NOT_FOUND',
      'This workspace no longer exists. Choose another one in the sidebar.',
      { workspaceId },
    );
  const handle = await workspaceDirectory(record);
  return { id: record.id, rootName: record.kind === 'opfs' ? record.name : handle.name, access: record.access, handle };
}

/** A SessionStore whose every call runs in the Worker (writes behind its one-writer check). */
function storeThrough(host: () => Promise<Host>, workspaceId: string): SessionStore {
  const call = (method: StoreMethod, args: unknown[]): Promise<unknown> =>
    host().then((h) =>
      (h.store as unknown as (w: string, m: StoreMethod, a: unknown[]) => Promise<unknown>)(workspaceId, method, args),
    );
  return {
    workspaceId,
    create: (...args) => call('create', args) as never,
    get: (...args) => call('get', args) as never,
    list: (...args) => call('list', args) as never,
    load: (...args) => call('load', args) as never,
    loadIntact: (...args) => call('loadIntact', args) as never,
    commit: (...args) => call('commit', args) as never,
    rename: (...args) => call('rename', args) as never,
    delete: (...args) => call('delete', args) as never,
  };
}

/** The sessions of a workspace through the tab's Worker, for views that have no chat open (the sidebar). */
export const remoteSessionStore = (db: HarnessDb, workspaceId: string): SessionStore =>
  storeThrough(() => agentWorker(db.name), workspaceId);

/** The agent of one workspace, running in the tab's Worker. `askPerson`/`askWrite` are the page's cards. */
export function remoteAgent(options: {
  db: HarnessDb;
  workspaceId: string;
  askPerson: AskPerson;
  askWrite: AskWrite;
}): RemoteAgent {
  const { workspaceId } = options;
  // The Worker this agent is attached to; a Worker that died is replaced on the next call, and attached again.
  let attached: { host: Promise<Host>; ready: Promise<Host> } | undefined;
  const ready = (): Promise<Host> => {
    const host = agentWorker(options.db.name);
    if (attached?.host !== host) {
      const next = host.then(async (h) => (await h.attach(await ticketOf(options.db, workspaceId)), h));
      // Unhandled until someone awaits it: a failed start surfaces on the first call, not as a stray rejection.
      next.catch(() => undefined);
      attached = { host, ready: next };
    }
    return attached.ready;
  };
  const store = storeThrough(ready, workspaceId);

  async function startTurn(turn: RemoteTurn) {
    const host = await ready();
    const events = new EventStream<AgentEvent, TurnResult>();
    const asks = new Map<number, AbortController>();
    const fail = (error: ErrorData) => {
      asks.forEach((a) => a.abort());
      events.push({ type: 'error', error, result: failedResult(error) });
      events.end(failedResult(error));
    };
    inFlight.add(fail);
    void events.result().then(() => inFlight.delete(fail));
    const asked = <T>(id: number, run: (signal: AbortSignal) => Promise<T>) => {
      const controller = new AbortController();
      asks.set(id, controller);
      return run(controller.signal).finally(() => asks.delete(id));
    };
    const ports = proxy({
      events: (batch: AgentEvent[]) => batch.forEach((event) => events.push(event)),
      end: (result: TurnResult) => events.end(result),
      ask: (id: number, request: Parameters<AskPerson>[0]) => asked(id, (signal) => options.askPerson(request, signal)),
      askWrite: (id: number, request: Parameters<AskWrite>[0]) =>
        asked(id, (signal) => options.askWrite(request, signal)),
      cancelAsk: (id: number) => asks.get(id)?.abort(),
    });
    let started;
    try {
      started = await host.startTurn(
        {
          workspaceId,
          sessionId: turn.sessionId,
          content: turn.content,
          ...(turn.before ? { before: turn.before } : {}),
          ...(turn.model ? { model: turn.model } : {}),
          ...(turn.compact ? { compact: turn.compact } : {}),
        },
        ports,
      );
    } finally {
      if (!started) inFlight.delete(fail);
    }
    const stop = () => void host.stopTurn(started.turnId);
    if (turn.signal.aborted) stop();
    else turn.signal.addEventListener('abort', stop, { once: true });
    void events.result().then(() => turn.signal.removeEventListener('abort', stop));
    return { session: started.session, events };
  }

  return {
    workspaceId,
    store,
    settings: () => ready().then((host) => host.settings(workspaceId)),
    listModels: () => ready().then((host) => host.listModels(workspaceId)),
    startTurn,
    interrupted: (sessionId) => ready().then((host) => host.interrupted(workspaceId, sessionId)),
    dismissInterrupted: (sessionId) => ready().then((host) => host.dismissInterrupted(workspaceId, sessionId)),
    claim: (sessionId, claimOptions) => ready().then((host) => host.claim(sessionId, claimOptions)),
    release: (sessionId) => ready().then((host) => host.release(sessionId)),
    contextBreakdown: (sessionId) => ready().then((host) => host.contextBreakdown(workspaceId, sessionId)),
    foldedMessages: (sessionId, compactionId) =>
      ready().then((host) => host.foldedMessages(workspaceId, sessionId, compactionId)),
    sessionUsage: (sessionId) => ready().then((host) => host.sessionUsage(workspaceId, sessionId)),
    prices: () => ready().then((host) => host.prices()),
    changes: (sessionId) => ready().then((host) => host.changes(workspaceId, sessionId)),
    fileVersions: (sessionId, path) => ready().then((host) => host.fileVersions(workspaceId, sessionId, path)),
    revert: (sessionId, op, force) => ready().then((host) => host.revert(workspaceId, sessionId, op, force)),
    revertPart: (sessionId, path, content, sha) =>
      ready().then((host) => host.revertPart(workspaceId, sessionId, path, content, sha)),
    rewind: (sessionId, index, mode, force) =>
      ready().then((host) => host.rewind(workspaceId, sessionId, index, mode, force)),
  };
}

/**
 * A workspace's cost and cache figures (Settings → Usage), read in the tab's Worker. Needs no open chat: the
 * Worker reads the session log and the cache statistics itself.
 */
export async function remoteWorkspaceUsage(workspaceId: string, db?: HarnessDb): Promise<WorkspaceUsage> {
  const host = db ? agentWorker(db.name) : shared?.host;
  if (!host)
    throw new HarnessError('E_AGENT_NOT_READY', 'The agent is still starting. Open a workspace, then try again.');
  return (await host).workspaceUsage(workspaceId);
}
