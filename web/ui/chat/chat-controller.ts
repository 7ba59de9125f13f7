// The live state of one workspace's chat: the open session's checkpointed messages, the turn in flight (streamed
// text/thinking, this step's tool calls and results, pending approvals), errors and the interrupted-turn report.
// Components read the signals; every change to storage goes through web/core (app-agent, sessions).
import { batch, createSignal } from 'solid-js';
import type { AgentEvent, ApprovalRequest, AssistantMessage, ErrorData, Message, TurnResult, WorkspaceFs } from '../../core';
import { createAppAgent, type AppAgent, type PluginWriteRequest, type TurnJournal } from '../../core/app-agent';
import { HarnessError, recoverSession, type HarnessDb, type RecoveredSession } from '../../core';
import type { ToolView } from './chat-model';

export interface PendingApproval {
  request: ApprovalRequest;
  /** Set for one fs.write inside a running plugin tool (path and diff); such a card has no "always allow". */
  write?: PluginWriteRequest;
  answer(decision: 'allow' | 'deny', always?: boolean, reason?: string): void;
}

export interface LiveTurn {
  prompt: string;
  /** True once a checkpoint of this turn holds the prompt. */
  saved: boolean;
  thinking: string;
  text: string;
  /** Assistant messages of this turn that are not in a checkpoint yet (a batch in progress). */
  assistants: AssistantMessage[];
  results: Record<string, ToolView['result']>;
  running: Record<string, true>;
}

export interface TurnFailure {
  error: ErrorData;
  stopReason: TurnResult['stopReason'];
  prompt: string;
  /** Whether the prompt reached a checkpoint (it is then in the session); if not, only this failure holds it. */
  saved: boolean;
  before: Message[];
  sessionId: string;
}

export interface ChatController {
  agent: AppAgent;
  sessionId: () => string | null;
  messages: () => Message[];
  live: () => LiveTurn | null;
  approvals: () => PendingApproval[];
  failure: () => TurnFailure | null;
  notice: () => string | null;
  warnings: () => ErrorData[];
  interrupted: () => TurnJournal | null;
  /** The open session was refused as damaged (E_SESSION_CORRUPT): its error, for the recover action. */
  damaged: () => { sessionId: string; error: ErrorData } | null;
  /** The last recovery, shown while its new session is open. */
  recovered: () => RecoveredSession | null;
  busy: () => boolean;
  open(sessionId: string | null): Promise<void>;
  send(prompt: string): Promise<void>;
  retry(): Promise<void>;
  stop(): void;
  dismissInterrupted(): Promise<void>;
  clearNotice(): void;
  /** Copies the intact part of the damaged open session into a new session (the damaged one is not changed). */
  recover(): Promise<RecoveredSession>;
}

const emptyLive = (prompt: string): LiveTurn => ({ prompt, saved: false, thinking: '', text: '', assistants: [], results: {}, running: {} });

export function createChatController(options: {
  db: HarnessDb;
  workspaceId: string;
  fs: WorkspaceFs;
  /** Called when a turn created or changed a session (the sidebar list refreshes). */
  onSession: (id: string) => void;
  stoppedText: () => string;
}): ChatController {
  const [sessionId, setSessionId] = createSignal<string | null>(null);
  const [messages, setMessages] = createSignal<Message[]>([]);
  const [live, setLive] = createSignal<LiveTurn | null>(null);
  const [approvals, setApprovals] = createSignal<PendingApproval[]>([]);
  const [failure, setFailure] = createSignal<TurnFailure | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);
  const [warnings, setWarnings] = createSignal<ErrorData[]>([]);
  const [interrupted, setInterrupted] = createSignal<TurnJournal | null>(null);
  const [damaged, setDamaged] = createSignal<{ sessionId: string; error: ErrorData } | null>(null);
  const [recovered, setRecovered] = createSignal<RecoveredSession | null>(null);
  let controller: AbortController | null = null;
  /** "Always allow X in this session": tool names, per session, in memory only. */
  const alwaysAllowed = new Map<string, Set<string>>();

  const agent = createAppAgent({
    db: options.db,
    workspaceId: options.workspaceId,
    fs: options.fs,
    askPerson: (request, signal) =>
      new Promise((resolve, reject) => {
        const sid = sessionId();
        // A file the write policy always asks about is never covered by "always allow" (it offers none).
        if (sid && alwaysAllowed.get(sid)?.has(request.name) && !request.prepared?.alwaysAsk) return resolve('allow');
        const remove = () => setApprovals((all) => all.filter((a) => a !== pending));
        const pending: PendingApproval = {
          request,
          answer(decision, always) {
            remove();
            if (always && decision === 'allow' && sid) {
              if (!alwaysAllowed.has(sid)) alwaysAllowed.set(sid, new Set());
              alwaysAllowed.get(sid)!.add(request.name);
            }
            resolve(decision);
          },
        };
        signal.addEventListener('abort', () => {
          remove();
          reject(new Error('stopped'));
        });
        setApprovals((all) => [...all, pending]);
      }),
    // Each fs.write of a plugin tool in mode 'ask': the same inline card, showing the path and the diff.
    askWrite: (write, signal) =>
      new Promise<boolean>((resolve) => {
        if (signal.aborted) return resolve(false);
        const remove = () => setApprovals((all) => all.filter((a) => a !== pending));
        const pending: PendingApproval = {
          request: {
            callId: write.callId,
            name: write.tool,
            arguments: { path: write.path },
            external: true,
            prepared: { summary: write.path, detail: write.diff, target: { path: write.path, ...(write.rawPath !== undefined ? { raw: write.rawPath } : {}) }, ...(write.alwaysAsk ? { alwaysAsk: write.alwaysAsk } : {}) },
          },
          write,
          answer(decision) {
            remove();
            resolve(decision === 'allow');
          },
        };
        signal.addEventListener('abort', () => pending.answer('deny'), { once: true });
        setApprovals((all) => [...all, pending]);
      }),
  });

  async function reload(id: string | null) {
    if (!id) {
      batch(() => {
        setMessages([]);
        setInterrupted(null);
      });
      return;
    }
    let loaded, journal;
    try {
      [loaded, journal] = await Promise.all([agent.store.load(id), controller ? Promise.resolve(null) : agent.interrupted(id)]);
    } catch (error) {
      // A damaged session is shown with its error and the way to recover its intact part, not only a toast.
      const data = error as ErrorData;
      if (data?.code !== 'E_SESSION_CORRUPT' || sessionId() !== id) throw error;
      batch(() => {
        setMessages([]);
        setInterrupted(null);
        setDamaged({ sessionId: id, error: { code: data.code, message: data.message, ...(data.data !== undefined ? { data: data.data } : {}) } });
      });
      return;
    }
    batch(() => {
      setMessages(loaded.messages);
      setInterrupted(journal);
    });
  }

  function onEvent(event: AgentEvent) {
    const update = (f: (l: LiveTurn) => LiveTurn) => setLive((l) => (l ? f(l) : l));
    switch (event.type) {
      case 'model': {
        const e = event.event;
        if (e.type === 'text-delta') update((l) => ({ ...l, text: l.text + e.delta }));
        else if (e.type === 'thinking-delta') update((l) => ({ ...l, thinking: l.thinking + e.delta }));
        break;
      }
      case 'step-start':
        update((l) => ({ ...l, text: '', thinking: '' }));
        break;
      case 'assistant':
        update((l) => ({ ...l, text: '', thinking: '', assistants: [...l.assistants, event.message] }));
        break;
      case 'tool-start':
        update((l) => ({ ...l, running: { ...l.running, [event.id]: true } }));
        break;
      case 'tool-result':
        update((l) => ({ ...l, results: { ...l.results, [event.id]: { output: event.output, error: event.error, ...(event.code ? { code: event.code } : {}) } } }));
        break;
      case 'warning':
        setWarnings((w) => [...w, event.error]);
        break;
      default:
        break;
    }
  }

  async function run(prompt: string, start: (signal: AbortSignal) => ReturnType<AppAgent['startTurn']>) {
    if (controller) return;
    controller = new AbortController();
    const before = messages();
    batch(() => {
      setFailure(null);
      setNotice(null);
      setWarnings([]);
      setInterrupted(null);
      setLive(emptyLive(prompt));
    });
    let sid = sessionId();
    let saved = false;
    try {
      const turn = await start(controller.signal);
      sid = turn.session.id;
      if (sessionId() !== sid) {
        setSessionId(sid);
        options.onSession(sid);
      }
      for await (const event of turn.events) {
        onEvent(event);
        if (event.type === 'checkpoint') {
          saved = true;
          const loaded = await agent.store.load(sid);
          batch(() => {
            setMessages(loaded.messages);
            setLive((l) => (l ? { ...l, saved: true, assistants: [], results: {}, running: {} } : l));
          });
        }
      }
      const result = await turn.events.result();
      const loaded = await agent.store.load(sid);
      batch(() => {
        setMessages(loaded.messages);
        setLive(null);
        if (result.stopReason === 'aborted') setNotice(options.stoppedText());
        else if (result.error) setFailure({ error: result.error, stopReason: result.stopReason, prompt, saved, before, sessionId: sid! });
        else if (result.stopReason !== 'stop') setFailure({ error: { code: `STOP_${result.stopReason.toUpperCase()}`, message: '' }, stopReason: result.stopReason, prompt, saved, before, sessionId: sid! });
      });
      options.onSession(sid);
    } catch (error) {
      const data = error as ErrorData;
      batch(() => {
        setLive(null);
        setFailure({ error: { code: data.code ?? 'E_TURN_FAILED', message: data.message ?? String(error) }, stopReason: 'error', prompt, saved, before, sessionId: sid ?? '' });
      });
    } finally {
      controller = null;
      setApprovals([]);
    }
  }

  return {
    agent,
    sessionId,
    messages,
    live,
    approvals,
    failure,
    notice,
    warnings,
    interrupted,
    damaged,
    recovered,
    busy: () => live() !== null,
    async open(id) {
      if (controller) return;
      batch(() => {
        setSessionId(id);
        setFailure(null);
        setNotice(null);
        setWarnings([]);
        setDamaged(null);
        if (recovered()?.info.id !== id) setRecovered(null);
      });
      await reload(id);
    },
    send: (prompt) => run(prompt, (signal) => agent.startTurn({ sessionId: sessionId(), content: prompt, signal })),
    async retry() {
      const f = failure();
      if (!f) return;
      if (!f.sessionId) return run(f.prompt, (signal) => agent.startTurn({ sessionId: null, content: f.prompt, signal }));
      return run(f.prompt, (signal) => agent.retryTurn({ sessionId: f.sessionId, before: f.before, content: f.prompt, signal }));
    },
    stop: () => controller?.abort(),
    async dismissInterrupted() {
      const id = sessionId();
      if (id) await agent.dismissInterrupted(id);
      setInterrupted(null);
    },
    clearNotice: () => setNotice(null),
    async recover() {
      const d = damaged();
      if (!d) throw new HarnessError('E_SESSION_NOT_DAMAGED', 'The open session is not damaged, so there is nothing to recover. Open it as it is.');
      const result = await recoverSession(agent.store, d.sessionId);
      setRecovered(result);
      return result;
    },
  };
}
