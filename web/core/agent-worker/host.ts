// The agent side of the page ↔ Worker boundary: one AppAgent per attached workspace, turns whose events and
// approvals travel to the page through the TurnPorts callbacks, the session store behind a writer check, and the
// session locks. Framework-free and Worker-agnostic: worker.ts exposes it with comlink; tests call it directly.
import { createAppAgent, pairedBridge, type AppAgent } from '../app-agent';
import { getSecret, readGlobalSettings } from '../settings';
import { readAgentSettings } from '../app-agent';
import { cacheReport, createIdbStatsStore } from '../modules';
import { foldedMessages } from '../sessions';
import type { PriceTable } from '../contracts';
import { createUsageQueries } from './usage-queries';
import { listProviderModels } from '../transport';
import type { AgentEvent } from '../agent';
import { HarnessError, toErrorData } from '../contracts';
import type { WorkspaceFs } from '../contracts';
import { openHarnessDb, type HarnessDb } from '../storage';
import { createIdbSessionStore, type SessionStore } from '../sessions';
import type { AgentHostApi, TurnPorts, WorkspaceTicket } from './protocol';
import { createSessionLocks, type SessionLocks } from './session-locks';

export interface AgentHostOptions {
  createFs(ticket: WorkspaceTicket): WorkspaceFs | Promise<WorkspaceFs>;
  openDb?(name?: string): Promise<HarnessDb>;
  /** Web Locks; defaults to navigator.locks where present. */
  locks?: Parameters<typeof createSessionLocks>[1];
  /** How long streamed events are gathered before one call to the page (ms). */
  batchMs?: number;
}

/** Events the page must see at once (a card to show, a checkpoint to load), flushing what was gathered before. */
const URGENT = new Set<AgentEvent['type']>([
  'approval-needed',
  'checkpoint',
  'assistant',
  'tool-start',
  'tool-result',
  'warning',
  'error',
  'done',
]);

const readOnly = (sessionId: string) =>
  new HarnessError(
    'E_SESSION_READ_ONLY',
    'This session is open for writing in another tab. Use “Take over” to write it here, or close it in the other tab.',
    { sessionId },
  );

export function createAgentHost(options: AgentHostOptions): AgentHostApi {
  let db: Promise<HarnessDb> | undefined;
  let locks: SessionLocks | undefined;
  const agents = new Map<string, AppAgent>();
  /** The approval ports of the turn running in each workspace (one turn per workspace at a time). */
  const asking = new Map<string, ReturnType<typeof portsFor>>();
  /** Running turns: their stop and the session they write (a lost lock stops them at once, here). */
  const turns = new Map<number, { controller: AbortController; sessionId: string }>();
  /** Each workspace's session store behind the writer check: the agent's own commits and the page's writes alike. */
  const stores = new Map<string, SessionStore>();
  /** Per-workspace usage totals, remembered per session checkpoint. */
  const usage = new Map<string, ReturnType<typeof createUsageQueries>>();
  let nextTurn = 1;
  let nextAsk = 1;
  const batchMs = options.batchMs ?? 16;

  const agentOf = (workspaceId: string): AppAgent => {
    const agent = agents.get(workspaceId);
    if (!agent)
      throw new HarnessError(
        'E_WORKSPACE_NOT_ATTACHED',
        'This workspace is not open in the agent. Reopen the workspace.',
        { workspaceId },
      );
    return agent;
  };
  const lockOf = (): SessionLocks => {
    if (!locks) throw new HarnessError('E_AGENT_NOT_READY', 'The agent is still starting. Try again in a moment.');
    return locks;
  };

  const storeOf = async (workspaceId: string): Promise<SessionStore> => {
    let store = stores.get(workspaceId);
    if (!store) stores.set(workspaceId, (store = guarded(createIdbSessionStore(await dbOf(), workspaceId))));
    return store;
  };
  const dbOf = (): Promise<HarnessDb> => {
    if (!db) throw new HarnessError('E_AGENT_NOT_READY', 'The agent is still starting. Try again in a moment.');
    return db;
  };

  /** Every write of a session goes through asWriter; reads pass. */
  function guarded(store: SessionStore): SessionStore {
    return {
      ...store,
      workspaceId: store.workspaceId,
      get: (id) => store.get(id),
      list: () => store.list(),
      load: (id) => store.load(id),
      loadIntact: (id) => store.loadIntact(id),
      create: (init) => (init.id ? asWriter(init.id, () => store.create(init)) : store.create(init)),
      commit: (id, entries, expectedSeq) => asWriter(id, () => store.commit(id, entries, expectedSeq)),
      rename: (id, title) => asWriter(id, () => store.rename(id, title)),
      delete: (id) => asWriter(id, () => store.delete(id)),
    };
  }

  /** Runs a write of `sessionId` as its writer: this tab holds it, or it is free and is held for the write only. */
  async function asWriter<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const l = lockOf();
    if (l.holds(sessionId)) return work();
    if ((await l.claim(sessionId)) !== 'writer') throw readOnly(sessionId);
    try {
      return await work();
    } finally {
      await l.release(sessionId);
    }
  }

  function portsFor(ports: TurnPorts, signal: AbortSignal) {
    const ask = <T>(call: (id: number) => Promise<T>, onAbort: (reject: (e: unknown) => void) => void): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        const id = nextAsk++;
        const abort = () => {
          ports.cancelAsk(id);
          onAbort(reject);
        };
        if (signal.aborted) return abort();
        signal.addEventListener('abort', abort, { once: true });
        call(id)
          .then(resolve, reject)
          .finally(() => signal.removeEventListener('abort', abort));
      });
    return {
      askPerson: (request: Parameters<TurnPorts['ask']>[1]) =>
        ask(
          (id) => ports.ask(id, request),
          (reject) => reject(new HarnessError('E_TURN_STOPPED', 'The turn was stopped.')),
        ),
      askWrite: (request: Parameters<TurnPorts['askWrite']>[1]) =>
        ask(
          (id) => ports.askWrite(id, request),
          (reject) => reject(new HarnessError('E_TURN_STOPPED', 'The turn was stopped.')),
        ).catch(() => false),
    };
  }

  /** Sends events in order, gathering streamed deltas for up to `batchMs` so a fast stream is a few calls a frame. */
  function batcher(ports: TurnPorts) {
    let queue: AgentEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (queue.length === 0) return;
      const batch = queue;
      queue = [];
      ports.events(batch);
    };
    return {
      push(event: AgentEvent) {
        // Consecutive deltas of one stream part become one event: the page does one update per frame, not one per token.
        const last = queue.at(-1);
        if (
          event.type === 'model' &&
          last?.type === 'model' &&
          (event.event.type === 'text-delta' || event.event.type === 'thinking-delta')
        ) {
          const prev = last.event;
          if (prev.type === event.event.type && prev.index === event.event.index && last.step === event.step) {
            queue[queue.length - 1] = { ...last, event: { ...prev, delta: prev.delta + event.event.delta } };
            return;
          }
        }
        queue.push(event);
        if (URGENT.has(event.type)) flush();
        else timer ??= setTimeout(flush, batchMs);
      },
      flush,
    };
  }

  return {
    async init(init, onRoleChange) {
      db ??= (options.openDb ?? openHarnessDb)(init.dbName);
      await db;
      locks ??= createSessionLocks((sessionId, role) => {
        // Another tab took the session over: a turn writing it here stops now (its last save is refused, the other
        // tab writes). Either way the page is told.
        if (role === 'reader')
          for (const turn of turns.values()) if (turn.sessionId === sessionId) turn.controller.abort();
        onRoleChange(sessionId, role);
      }, options.locks);
    },
    async attach(ticket) {
      if (!db) throw new HarnessError('E_AGENT_NOT_READY', 'The agent is still starting. Try again in a moment.');
      const fs = await options.createFs(ticket);
      // The agent asks through the ports of the turn running in this workspace; with none, it is refused.
      const agent = createAppAgent({
        db: await db,
        workspaceId: ticket.id,
        fs,
        store: await storeOf(ticket.id),
        askPerson: (request) => asking.get(ticket.id)?.askPerson(request) ?? Promise.resolve('deny'),
        askWrite: (request) => asking.get(ticket.id)?.askWrite(request) ?? Promise.resolve(false),
      });
      agents.set(ticket.id, agent);
    },
    async detach(workspaceId) {
      agents.delete(workspaceId);
    },
    settings: async (workspaceId) => agentOf(workspaceId).settings(),
    async listModels(workspaceId) {
      const config = (await agentOf(workspaceId).settings()).model?.config;
      if (!config)
        throw new HarnessError(
          'E_MODEL_NOT_CONFIGURED',
          'No model is configured yet. Open Settings → Model, choose a provider and save.',
        );
      const opened = await db!;
      return listProviderModels({
        config,
        getKey: (name) => getSecret(opened, name),
        getBridge: () => pairedBridge(opened),
      });
    },
    async startTurn(request, ports) {
      const agent = agentOf(request.workspaceId);
      const sessionId = request.sessionId ?? crypto.randomUUID();
      if (asking.has(request.workspaceId)) {
        throw new HarnessError(
          'E_TURN_BUSY',
          'A turn is already running in this workspace. Wait for it to finish or stop it first.',
          { workspaceId: request.workspaceId },
        );
      }
      const l = lockOf();
      if (!l.holds(sessionId) && (await l.claim(sessionId)) !== 'writer') throw readOnly(sessionId);
      const controller = new AbortController();
      const turnId = nextTurn++;
      turns.set(turnId, { controller, sessionId });
      asking.set(request.workspaceId, portsFor(ports, controller.signal));
      const done = () => {
        turns.delete(turnId);
        asking.delete(request.workspaceId);
      };
      try {
        const turn = request.before
          ? await agent.retryTurn({
              sessionId,
              before: request.before,
              content: request.content,
              signal: controller.signal,
              ...(request.model ? { model: request.model } : {}),
            })
          : await agent.startTurn({
              sessionId,
              content: request.content,
              signal: controller.signal,
              ...(request.model ? { model: request.model } : {}),
              ...(request.compact ? { compact: request.compact } : {}),
            });
        const out = batcher(ports);
        void (async () => {
          try {
            for await (const event of turn.events) out.push(event);
            out.flush();
            ports.end(await turn.events.result());
          } finally {
            done();
          }
        })();
        return { turnId, session: { id: turn.session.id, title: turn.session.title } };
      } catch (error) {
        done();
        if (HarnessError.isInstance(error)) throw error;
        const data = toErrorData(error, 'E_TURN_FAILED');
        throw new HarnessError(data.code, data.message, data.data as Record<string, unknown> | undefined);
      }
    },
    stopTurn(turnId) {
      turns.get(turnId)?.controller.abort();
    },
    interrupted: async (workspaceId, sessionId) => agentOf(workspaceId).interrupted(sessionId),
    dismissInterrupted: async (workspaceId, sessionId) => agentOf(workspaceId).dismissInterrupted(sessionId),
    async store(workspaceId, method, args) {
      // No agent needed: the sidebar renames and deletes sessions of workspaces whose chat is not open.
      const store = await storeOf(workspaceId);
      return (store[method] as (...a: unknown[]) => Promise<unknown>).apply(store, args as unknown[]) as never;
    },
    // The page claims the session it opens: followed, so a reader becomes the writer when the other tab lets go.
    claim: async (sessionId, claimOptions) => lockOf().claim(sessionId, { ...claimOptions, follow: true }),
    release: async (sessionId) => lockOf().release(sessionId),
    contextBreakdown: async (workspaceId, sessionId) => agentOf(workspaceId).contextBreakdown(sessionId),
    foldedMessages: async (workspaceId, sessionId, compactionId) =>
      foldedMessages(await storeOf(workspaceId), sessionId, compactionId),
    sessionUsage: async (workspaceId, sessionId) =>
      (await usageOf(workspaceId)).sessionTotals(sessionId, await pricesNow()),
    async workspaceUsage(workspaceId) {
      const [queries, prices, modules] = await Promise.all([
        usageOf(workspaceId),
        pricesNow(),
        readAgentSettings(await dbOf(), workspaceId).then((s) => s.modules),
      ]);
      const stats = await createIdbStatsStore(await dbOf(), { workspaceId, namespace: modules.cache.namespace }).read();
      const cache =
        stats.totals.prepared > 0
          ? { report: cacheReport(stats, modules.cache.target_hit_ratio), records: stats.records }
          : null;
      return { ...(await queries.workspaceTotals(prices)), cache };
    },
    prices: () => pricesNow(),
    changes: async (workspaceId, sessionId) => agentOf(workspaceId).undo.changes(sessionId),
    fileVersions: async (workspaceId, sessionId, path) => agentOf(workspaceId).undo.versions(sessionId, path),
    // A revert or rewind writes the session's files (and a rewind its log): only the session's writer may.
    // Not while a turn runs in the workspace: its next write would record a "before" the revert is changing.
    revert: (workspaceId, sessionId, op, force) =>
      idle(workspaceId, () => asWriter(sessionId, () => agentOf(workspaceId).undo.revert(sessionId, op, force))),
    revertPart: (workspaceId, sessionId, path, content, expectedSha) =>
      idle(workspaceId, () =>
        asWriter(sessionId, () => agentOf(workspaceId).undo.revertPart(sessionId, path, content, expectedSha)),
      ),
    rewind: (workspaceId, sessionId, messageIndex, mode, force) =>
      idle(workspaceId, () =>
        asWriter(sessionId, () => agentOf(workspaceId).undo.rewind(sessionId, messageIndex, mode, force)),
      ),
  };

  async function idle<T>(workspaceId: string, work: () => Promise<T>): Promise<T> {
    if (asking.has(workspaceId))
      throw new HarnessError(
        'E_TURN_BUSY',
        'A turn is running in this workspace. Stop it or let it finish, then revert or rewind.',
        { workspaceId },
      );
    return work();
  }

  async function usageOf(workspaceId: string) {
    let queries = usage.get(workspaceId);
    if (!queries) usage.set(workspaceId, (queries = createUsageQueries(await storeOf(workspaceId))));
    return queries;
  }
  async function pricesNow(): Promise<PriceTable | null> {
    return (await readGlobalSettings(await dbOf())).prices ?? null;
  }
}
