// The live state of one workspace's chat: the open session's checkpointed messages, the turn in flight (streamed
// text/thinking, this step's tool calls and results, pending approvals), errors and the interrupted-turn report.
// The agent runs in the tab's Worker (web/core/agent-worker); components read the signals here. Only the tab that
// holds a session's lock writes it; another tab follows it read-only and live (session-follow.ts).
import { batch, createMemo, createSignal, onCleanup } from 'solid-js';
import type { ContentPart, ErrorData, Message } from '../../core/contracts';
import type { AgentEvent, TurnResult } from '../../core/page';
import { addApprovalRule, type TurnJournal } from '../../core/page';
import {
  onSessionRole,
  remoteAgent,
  type RemoteAgent,
  type RemoteTurn,
  type SessionRole,
} from '../../core/agent-worker';
import { HarnessError } from '../../core/contracts';
import { forkSession, recoverSession, type HarnessDb, type RecoveredSession } from '../../core/page';
import { approvalPorts } from './approval-ports';
import { changesFiles, emptyLive, liveAfter, type LiveTurn } from './live-turn';
import { undoActions, type UndoActions } from './undo-actions';
import { broadcastSession, followSession, type SessionChannel } from './session-follow';
import type { ContextBreakdown, ContextSize, PriceTable, UsageTotals } from '../../core/contracts';
import { EMPTY_TOTALS } from '../../core/page';

export type { LiveTurn } from './live-turn';

export type { PendingApproval } from './approval-ports';
import type { PendingApproval } from './approval-ports';

export interface TurnFailure {
  error: ErrorData;
  stopReason: TurnResult['stopReason'];
  prompt: string;
  /** What was sent (text, attached files, images): Retry sends it again as it was. */
  content: string | ContentPart[];
  /** Whether the prompt reached a checkpoint (it is then in the session); if not, only this failure holds it. */
  saved: boolean;
  /**
   * The prompt is the session's last message, saved with this error (`_failed`) because nothing answered it: a
   * reload shows it too. Retry sends it again in its place; "Edit message" replaces it with what is sent next.
   */
  kept?: true;
  before: Message[];
  sessionId: string;
}

export interface ChatController {
  agent: RemoteAgent;
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
  /** 'reader' when another tab writes the open session: shown live, read-only, until takeOver(). */
  role: () => SessionRole;
  takeOver(): Promise<void>;
  /** The model the next turn uses: null = the configured one. */
  model: () => string | null;
  setModel(name: string | null): void;
  /** The provider's model list (GET …/models), for the switcher. */
  listModels(): Promise<string[]>;
  open(sessionId: string | null): Promise<void>;
  /** False when the turn could not start (one is still running, or another tab writes this session): nothing sent. */
  send(content: string | ContentPart[]): Promise<boolean>;
  /** Runs the turn of the user message before assistant message `index` again, replacing what followed it. */
  regenerate(index: number): Promise<void>;
  /** Replaces user message `index` with `text` and answers it again; the conversation as it was is kept as a fork. */
  editResend(index: number, text?: string): Promise<void>;
  /** Asks the agent to go on after a stop (the stopped answer is in the session). */
  continueTurn(): Promise<unknown>;
  retry(): Promise<unknown>;
  /** The next send replaces the failed prompt the session ends with (its "Edit message"), instead of following it. */
  replaceFailedPrompt(): void;
  stop(): void;
  dismissInterrupted(): Promise<void>;
  clearNotice(): void;
  /** Copies the intact part of the damaged open session into a new session (the damaged one is not changed). */
  recover(): Promise<RecoveredSession>;
  /** Size of the next request; set when a session opens, by every step's usage event and after a turn; null before it is known. */
  context: () => ContextSize | null;
  /** The next request, part by part (the /context view), for the open session (or a new one). */
  contextBreakdown(): Promise<ContextBreakdown>;
  /** Compacts the open session now (a compaction-only turn: busy() while it runs, refusals as a turn's failure). */
  compact(focus?: string): Promise<void>;
  /** The original messages one compaction folded, read from the session log. */
  foldedMessages(compactionId: string): Promise<Message[]>;
  /** The open session's totals over its whole log (a new session: nothing yet). */
  sessionUsage(): Promise<UsageTotals>;
  /** The price table in force (global settings `prices`), for per-message cost; re-read when a session opens and after each turn. */
  prices: () => PriceTable | null;
  /** Undo: the session's changes, reverts and "Rewind to here" (undo-actions.ts). */
  undo: UndoActions;
}

const CONTINUE_PROMPT = 'Continue from where you stopped.';

const textOf = (content: string | ContentPart[]) =>
  typeof content === 'string' ? content : content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
const imagesOf = (content: string | ContentPart[]) =>
  typeof content === 'string' ? [] : content.flatMap((p) => (p.type === 'image_url' ? [p.image_url.url] : []));
/** A prompt the person typed (not a context injection, tool images or a batch error the loop added). */
const isPrompt = (m: Message | undefined): m is Message & { role: 'user' } =>
  m?.role === 'user' && m._meta === undefined;

export function createChatController(options: {
  db: HarnessDb;
  workspaceId: string;
  /** Called when a turn created or changed a session (the sidebar list refreshes). */
  onSession: (id: string) => void;
  stoppedText: () => string;
  /** The agent changed files (the Files panel refreshes). */
  onFilesChanged?: () => void;
  /** The notice after an edit: the conversation as it was is kept as the fork `title`. */
  keptText?: (title: string) => string;
  /** For tests: another agent than the tab's Worker. */
  agent?: RemoteAgent;
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
  const [role, setRole] = createSignal<SessionRole>('writer');
  const [model, setModel] = createSignal<string | null>(null);
  const [context, setContext] = createSignal<ContextSize | null>(null);
  const [prices, setPrices] = createSignal<PriceTable | null>(null);
  let controller: AbortController | null = null;
  /** "Edit message" on a kept failed prompt: the next send takes its place. */
  let replacing = false;
  // A session that ends with a prompt nothing answered (saved with its error): the failure, also after a reload.
  const keptFailure = createMemo((): TurnFailure | null => {
    const all = messages();
    const last = all.at(-1);
    if (!isPrompt(last) || !last._failed) return null;
    return {
      error: last._failed,
      stopReason: 'error',
      prompt: textOf(last.content),
      content: last.content,
      saved: true,
      kept: true,
      before: all.slice(0, -1),
      sessionId: sessionId() ?? '',
    };
  });
  /** What the end of the log shows: a prompt kept only here (unsaved) first, else the session's failed prompt. */
  const shownFailure = (): TurnFailure | null => {
    if (live()) return null;
    const mem = failure();
    if (mem && !mem.saved) return mem;
    const kept = keptFailure();
    if (kept) return mem ? { ...kept, stopReason: mem.stopReason } : kept;
    return mem;
  };
  /** The writer's broadcast of the open session, or the reader's subscription to it. */
  let channel: (SessionChannel & { live?(turn: LiveTurn | null): void }) | null = null;

  const ports = approvalPorts({
    sessionId,
    setApprovals,
    saveRule: async (rule) => void (await addApprovalRule(options.db, options.workspaceId, rule)),
    onRuleError: (error) =>
      setWarnings((w) => [...w, { code: error.code ?? 'E_SETTINGS_FAILED', message: error.message ?? String(error) }]),
  });
  const agent = options.agent ?? remoteAgent({ db: options.db, workspaceId: options.workspaceId, ...ports });
  const undo = undoActions({
    agent,
    sessionId,
    busy: () => live() !== null,
    reload: (id) => reload(id),
    ...(options.onFilesChanged ? { onFilesChanged: options.onFilesChanged } : {}),
  });

  const setLiveShared = (next: LiveTurn | null | ((l: LiveTurn | null) => LiveTurn | null)) => {
    const value = setLive(next as LiveTurn | null);
    channel?.live?.(value);
    return value;
  };

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
      [loaded, journal] = await Promise.all([
        agent.store.load(id),
        controller || role() === 'reader' ? Promise.resolve(null) : agent.interrupted(id),
      ]);
    } catch (error) {
      // A damaged session is shown with its error and the way to recover its intact part, not only a toast.
      const data = error as ErrorData;
      if (data?.code !== 'E_SESSION_CORRUPT' || sessionId() !== id) throw error;
      batch(() => {
        setMessages([]);
        setInterrupted(null);
        setDamaged({
          sessionId: id,
          error: { code: data.code, message: data.message, ...(data.data !== undefined ? { data: data.data } : {}) },
        });
      });
      return;
    }
    if (sessionId() !== id) return;
    batch(() => {
      setMessages(loaded.messages);
      setInterrupted(journal);
    });
  }

  /** Re-reads the meter's figure and the prices (a session opened, a turn ended); failures leave the last figures. */
  function refreshFigures(id: string | null) {
    void agent
      .contextBreakdown(id)
      .then((b) => sessionId() === id && setContext(b.size))
      .catch(() => undefined);
    void agent.prices().then(setPrices, () => undefined);
  }

  /** Becomes the open session's writer (broadcasting) or reader (following the other tab). */
  function attachChannel(id: string | null, as: SessionRole) {
    channel?.close();
    channel = null;
    if (!id) return;
    if (as === 'writer') channel = broadcastSession(id);
    else
      channel = followSession(id, (message) => {
        if (sessionId() !== id || role() !== 'reader') return;
        if (message.type === 'live') setLive(message.live);
        else void reload(id);
      });
  }

  onCleanup(
    onSessionRole((id, next) => {
      if (id !== sessionId() || next === role()) return;
      // Another tab took this session over: stop writing it here and follow that tab. Or the tab that wrote it let
      // go (closed it, or closed): this tab writes it now, from what is saved.
      if (next === 'reader') controller?.abort();
      setRole(next);
      attachChannel(id, next);
      if (next === 'writer') {
        setLive(null);
        void reload(id);
      }
    }),
  );
  onCleanup(() => {
    channel?.close();
    const id = sessionId();
    if (id) void agent.release(id).catch(() => undefined);
  });

  function onEvent(event: AgentEvent) {
    const l = live();
    const next = l && liveAfter(l, event);
    if (next && next !== l) setLiveShared(next);
    switch (event.type) {
      case 'tool-result':
        if (changesFiles(event)) options.onFilesChanged?.();
        break;
      case 'warning':
        setWarnings((w) => [...w, event.error]);
        break;
      case 'usage':
        // The size of the next request: after an answer, and after a compaction summary (the meter drops).
        setContext(event.context);
        break;
      case 'compaction-failed':
        // Said in the chat as a failed compaction whatever its code (a provider error too); nothing changed.
        setWarnings((w) => [
          ...w,
          { ...event.error, data: { ...(event.error.data as object | undefined), compaction_failed: true } },
        ]);
        break;
      default:
        break;
    }
  }

  async function run(content: string | ContentPart[], turn: Omit<RemoteTurn, 'signal' | 'content'>): Promise<boolean> {
    if (controller || role() === 'reader') return false;
    controller = new AbortController();
    replacing = false;
    // The history the turn starts from: a retry's or an edit's, so trying it again never keeps a copy of the prompt.
    const before = turn.before ?? messages();
    const prompt = turn.compact ? '' : textOf(content);
    batch(() => {
      setFailure(null);
      setNotice(null);
      setWarnings([]);
      setInterrupted(null);
      setLiveShared(
        turn.compact
          ? { ...emptyLive(''), saved: true, compacting: turn.compact }
          : emptyLive(prompt, imagesOf(content)),
      );
    });
    let sid = turn.sessionId;
    let saved = false;
    const chosen = model();
    try {
      const started = await agent.startTurn({
        ...turn,
        content,
        signal: controller.signal,
        ...(chosen ? { model: chosen } : {}),
      });
      sid = started.session.id;
      // The turn holds the session's lock; claiming it as the open session also makes this tab follow it after a
      // take-over (and write it again when the other tab lets go).
      void agent.claim(sid).catch(() => undefined);
      if (sessionId() !== sid) {
        setSessionId(sid);
        attachChannel(sid, 'writer');
        options.onSession(sid);
      }
      for await (const event of started.events) {
        onEvent(event);
        if (event.type === 'checkpoint') {
          saved = true;
          const loaded = await agent.store.load(sid);
          batch(() => {
            setMessages(loaded.messages);
            setLiveShared((l) => (l ? { ...l, saved: true, assistants: [], results: {}, running: {} } : l));
          });
          channel?.post({ type: 'saved' });
        }
      }
      const result = await started.events.result();
      const loaded = await agent.store.load(sid);
      batch(() => {
        setMessages(loaded.messages);
        setLiveShared(null);
        if (result.stopReason === 'aborted') setNotice(options.stoppedText());
        else if (result.error)
          setFailure({
            error: result.error,
            stopReason: result.stopReason,
            prompt,
            content,
            saved,
            before,
            sessionId: sid!,
          });
        else if (result.stopReason !== 'stop')
          setFailure({
            error: { code: `STOP_${result.stopReason.toUpperCase()}`, message: '' },
            stopReason: result.stopReason,
            prompt,
            content,
            saved,
            before,
            sessionId: sid!,
          });
      });
      channel?.post({ type: 'saved' });
      options.onSession(sid);
      refreshFigures(sid);
      undo.bump();
    } catch (error) {
      const data = error as ErrorData;
      batch(() => {
        setLiveShared(null);
        setFailure({
          error: { code: data.code ?? 'E_TURN_FAILED', message: data.message ?? String(error) },
          stopReason: 'error',
          prompt,
          content,
          saved,
          before,
          sessionId: sid ?? '',
        });
      });
    } finally {
      controller = null;
      setApprovals([]);
    }
    return true;
  }

  return {
    agent,
    sessionId,
    messages,
    live,
    approvals,
    failure: shownFailure,
    notice,
    warnings,
    interrupted,
    damaged,
    recovered,
    busy: () => live() !== null,
    role,
    model,
    setModel,
    listModels: () => agent.listModels(),
    async takeOver() {
      const id = sessionId();
      if (!id) return;
      const next = await agent.claim(id, { steal: true });
      setRole(next);
      attachChannel(id, next);
      setLive(null);
      await reload(id);
    },
    async open(id) {
      if (controller) return;
      const previous = sessionId();
      replacing = false;
      batch(() => {
        setSessionId(id);
        setLive(null);
        setFailure(null);
        setNotice(null);
        setWarnings([]);
        setDamaged(null);
        if (recovered()?.info.id !== id) setRecovered(null);
      });
      if (previous && previous !== id) await agent.release(previous).catch(() => undefined);
      const next: SessionRole = id ? await agent.claim(id) : 'writer';
      if (sessionId() !== id) return;
      setRole(next);
      attachChannel(id, next);
      setContext(null);
      refreshFigures(id);
      await reload(id);
    },
    send(content) {
      const kept = replacing ? keptFailure() : null;
      return kept
        ? run(content, { sessionId: kept.sessionId, before: kept.before })
        : run(content, { sessionId: sessionId() });
    },
    async regenerate(index) {
      if (controller || role() === 'reader') return;
      const all = messages();
      let at = Math.min(index, all.length) - 1;
      while (at >= 0 && !isPrompt(all[at])) at--;
      const id = sessionId();
      const prompt = all[at];
      if (!id || !isPrompt(prompt)) return;
      await run(prompt.content, { sessionId: id, before: all.slice(0, at) });
    },
    async editResend(index, text) {
      // Checked before the fork: a refused edit must not leave a stray copy of the conversation behind.
      if (controller || role() === 'reader') return;
      const all = messages();
      const id = sessionId();
      const original = all[index];
      if (!id || !isPrompt(original)) return;
      // The typed text is replaced; attached files and images go again as they were.
      const parts = typeof original.content === 'string' ? [] : original.content;
      const typed = parts.findIndex((p) => p.type === 'text');
      const kept = parts.filter((_, i) => i !== typed);
      const edited =
        text ?? (typeof original.content === 'string' ? original.content : textOf(typed >= 0 ? [parts[typed]!] : []));
      // The conversation as it was stays reachable: a fork of it, named "<title> (fork)".
      const fork = await forkSession(agent.store, id, all.length - 1);
      options.onSession(fork.id);
      await run(kept.length ? [{ type: 'text', text: edited }, ...kept] : edited, {
        sessionId: id,
        before: all.slice(0, index),
      });
      if (!failure())
        setNotice(options.keptText?.(fork.title) ?? `The conversation before the edit is kept as “${fork.title}”.`);
    },
    continueTurn: () => run(CONTINUE_PROMPT, { sessionId: sessionId() }),
    async retry() {
      // The prompt goes again in its own place: the session is first put back to the history before it.
      const f = shownFailure();
      if (!f) return;
      return f.sessionId
        ? run(f.content, { sessionId: f.sessionId, before: f.before })
        : run(f.content, { sessionId: null });
    },
    replaceFailedPrompt() {
      replacing = keptFailure() !== null;
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
      if (!d)
        throw new HarnessError(
          'E_SESSION_NOT_DAMAGED',
          'The open session is not damaged, so there is nothing to recover. Open it as it is.',
        );
      const result = await recoverSession(agent.store, d.sessionId);
      setRecovered(result);
      return result;
    },
    context,
    contextBreakdown: () => agent.contextBreakdown(sessionId()),
    async compact(focus) {
      const id = sessionId();
      const trimmed = focus?.trim();
      if (!id) {
        setFailure({
          error: {
            code: 'E_COMPACT_NOTHING_TO_FOLD',
            message: 'There is no conversation to compact yet. Send a message first.',
          },
          stopReason: 'error',
          prompt: '',
          content: '',
          saved: false,
          before: [],
          sessionId: '',
        });
        return;
      }
      await run('', { sessionId: id, compact: trimmed ? { focus: trimmed } : {} });
    },
    foldedMessages: (compactionId) => {
      const id = sessionId();
      if (!id)
        return Promise.reject(
          new HarnessError(
            'E_COMPACTION_NOT_FOUND',
            'No session is open. Open the session whose compaction you want to see.',
          ),
        );
      return agent.foldedMessages(id, compactionId);
    },
    async sessionUsage() {
      const id = sessionId();
      return id ? agent.sessionUsage(id) : { ...EMPTY_TOTALS };
    },
    prices,
    undo,
  };
}
