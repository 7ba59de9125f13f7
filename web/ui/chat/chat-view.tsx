// Loaded lazily (with marked and DOMPurify): the chat of one workspace — the open session's messages, the turn in
// flight with streamed text/thinking, tool calls, inline approvals, errors with a retry, and session actions.
import './chat.css';
import { createEffect, createMemo, createResource, createSignal, For, lazy, on, onCleanup, Show, Suspense, type Accessor } from 'solid-js';
import { Portal } from 'solid-js/web';
import { forkSession, toErrorData, type ErrorData, type WorkspaceFs, type WorkspaceRecord } from '../../core';
import { saveApprovalMode, type ApprovalMode, type JournalCall, type TurnJournal } from '../../core/app-agent';
import type { AppState } from '../state/app-state';
import { ApprovalCard } from './approval-card';
import { chatTranslator, type ChatKey, type ChatTranslate } from './chat-i18n';
import { errorText } from './core-text';
import { createChatController } from './chat-controller';
import { assistantItem, chatItems, keepUnchanged, type ChatItem } from './chat-model';
import { Composer } from './composer';
import { ContinueAction, ReadOnlyBanner } from './turn-notices';
import { ContextItem } from './context-item';
import { CompactingNote } from './compaction-divider';
import { Item, UserBubble } from './message-item';
import { Markdown, MarkdownGrowth, Thinking } from './message-parts';
import { SessionActions } from './session-actions';
import { OfflineNote } from './offline-note';
import { FirstRun } from '../onboarding/first-run';
import { RewindContext, RewindDialog } from './rewind-dialog';
import { placeEvents } from './rewind-model';
import { createUndoEvents } from './undo-events';
import { UndoEventLine } from './undo-event-line';
import { createSessionChanges } from '../changes/changes-source';
import { ChangesTotal } from '../changes/changes-total';

// The Changes panel (and through it CodeMirror) loads when the side panel's Changes tab is first rendered.
const ChangesPanel = lazy(() => import('../changes/changes-panel'));

/** What identifies an answer between the live and the saved list: its text and the ids of its calls. */
const answerKey = (m: { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string }> }) => `${m.tool_calls?.map((c) => c.id).join(',') ?? ''}\u0000${m.content ?? ''}`;

/** Items a long session shows when it opens; scrolling to the top shows as many again. */
const SHOWN_AT_FIRST = 80;

/**
 * Shows earlier messages when the button scrolls into view because the person scrolled up (`scrolledUp`), without a
 * click; not when it is simply visible (a short log, or the moment a session opens, before it scrolls to its end).
 */
function observeEarlier(button: HTMLElement, show: () => void, scrolledUp: () => boolean) {
  if (typeof IntersectionObserver === 'undefined') return;
  const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && scrolledUp() && show(), { rootMargin: '200px 0px 0px 0px' });
  observer.observe(button);
  onCleanup(() => observer.disconnect());
}

export default function ChatView(props: { state: AppState; workspace: WorkspaceRecord; fs: WorkspaceFs; headerSlot: Accessor<HTMLElement | undefined>; changesSlot?: Accessor<HTMLElement | undefined> }) {
  const s = props.state;
  const ct = chatTranslator(s.locale);
  const chat = createChatController({
    db: s.db,
    workspaceId: props.workspace.id,
    onFilesChanged: () => s.filesChanged(props.workspace.id),
    onSession: (id) => {
      if (s.session() !== id) s.selectSession(id);
      void s.refreshSessions();
    },
    stoppedText: () => ct('stopped'),
    keptText: (title) => ct('editKept', { title }),
  });
  const [draft, setDraft] = createSignal('');
  // Not re-read for each file a running turn writes (each read diffs every changed file in the Worker, beside the
  // turn): the turn's end moves the undo epoch, and edits made through the Files panel between turns move filesEpoch.
  const sessionChanges = createSessionChanges({ sessionId: chat.sessionId, undo: chat.undo, filesEpoch: () => (chat.busy() ? null : s.filesEpoch().n) });
  // Rewinds, reverts and redos of the open session, shown as lines between its turns; the rewind dialog's target.
  const undoEvents = createUndoEvents({ db: s.db, workspaceId: props.workspace.id, chat });
  const placedEvents = createMemo(() => placeEvents(chat.messages(), undoEvents.events()));
  const [rewinding, setRewinding] = createSignal<{ index: number; text: string } | null>(null);
  const eventsAt = (at: number | 'end') => (
    <For each={placedEvents().get(at) ?? []}>
      {(e) => <UndoEventLine event={e} active={'group' in e && e.group !== undefined && undoEvents.active().has(e.group)} undo={chat.undo} ct={ct} idle={!chat.busy() && chat.role() === 'writer'} />}
    </For>
  );
  // Whether the last turn was a compaction-only one (`/compact`): its failure has no prompt to show, retry or edit.
  const [compactingTurn, setCompactingTurn] = createSignal(false);
  createEffect(on(chat.live, (l) => l && setCompactingTurn(l.compacting !== undefined && !l.compacting.auto)));
  const compactOnly = (f: { error: { code: string }; prompt: string }) => f.prompt === '' && (compactingTurn() || f.error.code.startsWith('E_COMPACT'));
  // Said once: a compaction-only failure is the failure block, not also a warning line above it.
  const shownWarnings = () => {
    const f = chat.failure();
    return f && compactOnly(f) ? chat.warnings().filter((w) => w.code !== f.error.code) : chat.warnings();
  };
  // The agent Worker answers this first; if it cannot start, the chat says so (with its code) instead of breaking.
  const [agentError, setAgentError] = createSignal<ErrorData | null>(null);
  const [settings, { refetch }] = createResource(
    () => s.settingsEpoch() + 1,
    () =>
      chat.agent.settings().then(
        (value) => (setAgentError(null), value),
        (error: unknown) => (setAgentError(toErrorData(error, 'E_AGENT_WORKER_FAILED')), undefined),
      ),
  );
  createEffect(on(s.session, (id) => void s.attempt(() => chat.open(id))));
  // Leaving the workspace ends its turn (an open approval counts as denied; finished calls keep their results).
  onCleanup(() => chat.stop());

  const title = createMemo(() => s.sessions().find((x) => x.id === chat.sessionId())?.title ?? ct('newSession'));
  // Items keep their objects across reloads (the log keeps their DOM), and a long session shows its last
  // SHOWN_AT_FIRST items until the person scrolls up to the rest (opening a 1,000-message session renders ~80).
  const items = createMemo<ChatItem[]>((previous) => keepUnchanged(previous, chatItems(chat.messages())), []);
  const [shown, setShown] = createSignal(SHOWN_AT_FIRST);
  createEffect(on(chat.sessionId, () => setShown(SHOWN_AT_FIRST)));
  const hidden = () => Math.max(0, items().length - shown());
  const visibleItems = createMemo(() => (hidden() > 0 ? items().slice(hidden()) : items()));
  function showEarlier() {
    if (!log) return setShown((n) => n + SHOWN_AT_FIRST);
    // Keep what the person is looking at where it is while earlier messages appear above it.
    const fromEnd = log.scrollHeight - log.scrollTop;
    setShown((n) => n + SHOWN_AT_FIRST);
    requestAnimationFrame(() => log && (log.scrollTop = log.scrollHeight - fromEnd));
  }
  // The answers of this turn already in the saved list are not shown again as live ones: the two lists change in
  // one batch at a checkpoint, but a copy of an answer on screen twice (live and saved) was seen in CI runs.
  const savedAnswers = createMemo(() => new Set(chat.messages().slice(-16).flatMap((m) => (m.role === 'assistant' ? [answerKey(m)] : []))));
  const liveItems = createMemo(() => {
    const l = chat.live();
    if (!l) return [];
    const saved = savedAnswers();
    return l.assistants.flatMap((m, i) => (saved.has(answerKey(m)) ? [] : [assistantItem(m, -1 - i, new Map(Object.entries(l.results)))]));
  });
  const liveText = () => {
    const text = chat.live()?.text ?? '';
    return text && !savedAnswers().has(answerKey({ role: 'assistant', content: text })) ? text : '';
  };

  let log: HTMLDivElement | undefined;
  // Whether the person was at the end of the log before this update (measured on scroll, not after the update: a
  // tall error or card appearing at the end must not count as the person having scrolled away from it).
  let atEnd = true;
  const onLogScroll = () => {
    if (log) atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 160;
  };
  // One scroll per frame at most: reading scrollHeight forces a layout of the whole log, and a stream updates it
  // many times a frame (measured: 1.6 s of a 200 KB answer's main-thread time went to per-update scrolling).
  let scrollQueued = false;
  const followEnd = () => {
    if (!log || scrollQueued || !(atEnd || chat.busy())) return;
    scrollQueued = true;
    requestAnimationFrame(() => {
      scrollQueued = false;
      if (!log) return;
      log.scrollTop = log.scrollHeight;
      // Blocks that came into view replace their estimated size with the real one on this frame: look again.
      requestAnimationFrame(() => log && log.scrollHeight - log.scrollTop - log.clientHeight > 2 && (log.scrollTop = log.scrollHeight));
    });
  };
  createEffect(on([items, chat.live, chat.approvals, chat.failure], followEnd));

  // The composer builds the message (typed text, attached @files, images) and clears the draft when it sends.
  async function send(content: Parameters<typeof chat.send>[0]) {
    // A message sent right after choosing another approval mode runs under that mode: the turn reads the saved one.
    await modeSaved;
    return chat.send(content);
  }
  async function fork(index: number) {
    const id = chat.sessionId();
    if (!id) return;
    await s.attempt(async () => {
      const info = await forkSession(chat.agent.store, id, index);
      await s.refreshSessions();
      s.selectSession(info.id);
      s.notify('info', ct('forked'));
    });
  }
  async function recover() {
    await s.attempt(async () => {
      const r = await chat.recover();
      await s.refreshSessions();
      s.selectSession(r.info.id);
    });
  }
  let modeSaved: Promise<unknown> = Promise.resolve();
  async function setMode(mode: ApprovalMode) {
    modeSaved = s.attempt(() => saveApprovalMode(s.db, props.workspace.id, mode));
    await modeSaved;
    await refetch();
  }

  return (
    <section class="chat-slot chat" aria-labelledby="chat-title" data-workspace-id={props.workspace.id}>
      {/* The session's title and menu sit in the workspace's top bar: one row of chrome above the conversation. */}
      <Show when={props.headerSlot()}>
        {(slot) => (
          <Portal mount={slot()}>
            <SessionActions state={s} store={chat.agent.store} sessionId={chat.sessionId()} title={title()} busy={chat.busy()} messageCount={chat.messages().length} onOpen={(id) => s.selectSession(id)} usage={() => chat.sessionUsage()} />
            <ChangesTotal t={s.t} changes={sessionChanges} />
          </Portal>
        )}
      </Show>
      <Show when={props.changesSlot?.()}>
        {(slot) => (
          <Portal mount={slot()}>
            <Suspense>
              <ChangesPanel t={s.t} db={s.db} workspaceId={props.workspace.id} sessionId={chat.sessionId} undo={chat.undo} changes={sessionChanges} idle={() => !chat.busy() && chat.role() === 'writer'} />
            </Suspense>
          </Portal>
        )}
      </Show>
      {/* No usable model: the first-run invitation and guided setup; after it, starter prompts for the message box. */}
      <Show when={agentError()}>
        {(e) => (
          <p class="banner error chat-banner" role="alert">
            {e().code}: {errorText(e(), s.locale())}
          </p>
        )}
      </Show>
      <FirstRun state={s} settings={settings()} fs={props.fs} onPrompt={setDraft} empty={items().length === 0 && !chat.live() && !chat.damaged() && !chat.failure() && !chat.interrupted()} />
      <ReadOnlyBanner chat={chat} ct={ct} />
      <MarkdownGrowth.Provider value={followEnd}>
        <div class="chat-log" ref={(el) => (log = el)} onScroll={onLogScroll} role="log" aria-label={ct('title')} aria-busy={chat.busy()}>
          <Show when={chat.interrupted()}>{(j) => <Interrupted journal={j()} ct={ct} onAgain={() => setDraft(j().prompt)} onDismiss={() => void chat.dismissInterrupted()} />}</Show>
          <Show when={chat.damaged()}>
            {(d) => (
              <div class="chat-error" role="alert" data-testid="damaged-session">
                <strong>{ct('damagedTitle', { code: d().error.code })}</strong>
                <p>{errorText(d().error, s.locale())}</p>
                <p class="field-hint">{ct('damagedHint')}</p>
                <div class="chat-error-actions">
                  <button type="button" class="button small" onClick={() => void recover()}>
                    {ct('recover')}
                  </button>
                </div>
              </div>
            )}
          </Show>
          <Show when={chat.recovered()}>
            {(r) => (
              <p class="chat-notice" role="status" data-testid="recovered-session">
                {ct('recovered', { title: r().from.title, kept: r().kept })}
                <Show when={r().cut > 0}> {ct('recoveredCut', { cut: r().cut })}</Show>
              </p>
            )}
          </Show>
          <Show when={items().length === 0 && !chat.live() && !chat.damaged()}>
            <p class="chat-empty">{ct('empty')}</p>
          </Show>
          <Show when={hidden() > 0}>
            <button type="button" class="button small ghost show-earlier" ref={(el) => observeEarlier(el, showEarlier, () => !atEnd)} onClick={showEarlier}>
              {ct('showEarlier', { count: hidden() })}
            </button>
          </Show>
          <RewindContext.Provider value={{ open: (index, text) => setRewinding({ index, text }) }}>
            <For each={visibleItems()}>
              {(item) => (
                <>
                  {eventsAt(item.index)}
                  <Item item={item} chat={chat} ct={ct} onFork={fork} />
                </>
              )}
            </For>
          </RewindContext.Provider>
          {eventsAt('end')}
          <Show when={chat.live()}>
            {(l) => (
              <>
                <Show when={!l().saved}>
                  <UserBubble text={l().prompt} images={[]} ct={ct} />
                </Show>
                <For each={liveItems()}>{(item) => <Item item={item} chat={chat} ct={ct} />}</For>
                {/* `/compact`: no prompt and no answer, only the summary being written; it lands as the divider. */}
                <Show when={l().compacting}>{(c) => <CompactingNote focus={c().focus} ct={ct} />}</Show>
                <Show when={!l().compacting && (l().thinking || liveText() || (chat.approvals().length === 0 && Object.keys(l().running).length === 0))}>
                  <article class="msg msg-assistant live" aria-live="polite">
                    <Show when={l().thinking}>
                      <Thinking text={l().thinking} live ct={ct} />
                    </Show>
                    <Show when={liveText()} fallback={<span class="typing" aria-label="…" />}>
                      <Markdown text={liveText()} ct={ct} />
                    </Show>
                  </article>
                </Show>
              </>
            )}
          </Show>
          <For each={chat.approvals()}>{(p) => <ApprovalCard pending={p} ct={ct} />}</For>
          <For each={shownWarnings()}>
            {(w) => (
              <Show
                when={w.code.startsWith('N_REPLAY')}
                fallback={
                  <p class="chat-warning" role="status">
                    {w.code.startsWith('E_COMPACT') || (w.data as { compaction_failed?: boolean } | undefined)?.compaction_failed ? ct('compact.failed', { code: w.code, message: w.message }) : ct('warning', { code: w.code, message: w.message })}
                  </p>
                }
              >
                {/* A replay notice concerns what the model is given, like workspace content: a context item. */}
                <ContextItem context="replay" text={`${w.code}: ${w.message}`} ct={ct} />
              </Show>
            )}
          </For>
          <Show when={chat.notice()}>
            <p class="chat-notice" role="status">
              {chat.notice()}
            </p>
          </Show>
          <ContinueAction chat={chat} ct={ct} />
          <Show when={chat.failure()}>
            {(f) => (
              <>
                {/* A turn that failed before its first checkpoint never saved the prompt: keep it on screen. */}
                <Show when={!f().saved && !compactOnly(f())}>
                  <UserBubble text={f().prompt} images={[]} ct={ct} />
                </Show>
                <div class="chat-error" role="alert">
                  <Show
                    when={compactOnly(f())}
                    fallback={<strong>{ct('errorTitle', { code: f().error.code.startsWith('STOP_') ? f().stopReason : f().error.code })}</strong>}
                  >
                    <strong>{ct('compact.failedTitle', { code: f().error.code })}</strong>
                  </Show>
                  {/* A compaction that was refused or failed left the history as it was: say so, with its code. */}
                  <p>
                    {compactOnly(f())
                      ? `${errorText(f().error, s.locale())} ${ct('compact.unchanged')}`
                      : f().error.code.startsWith('E_COMPACT')
                        ? ct('compact.failed', { code: f().error.code, message: errorText(f().error, s.locale()) })
                        : errorText(f().error, s.locale()) || ct('stopReason', { reason: f().stopReason })}
                  </p>
                  {/* A refused `/compact` has no prompt: retrying or editing would send an empty message. */}
                  <Show when={!compactOnly(f())}>
                    <div class="chat-error-actions">
                      <button type="button" class="button small" onClick={() => void chat.retry()}>
                        {ct('retry')}
                      </button>
                      <Show when={!f().saved}>
                        <button type="button" class="button small" onClick={() => setDraft(f().prompt)}>
                          {ct('editPrompt')}
                        </button>
                      </Show>
                    </div>
                  </Show>
                </div>
              </>
            )}
          </Show>
        </div>
      </MarkdownGrowth.Provider>
      <Show when={rewinding()}>
        {(r) => (
          <RewindDialog
            chat={chat}
            events={undoEvents}
            ct={ct}
            index={r().index}
            text={r().text}
            // The conversation went back to before the prompt: its text returns to the box, like Edit and ↑.
            onRewound={(mode) => mode !== 'files' && setDraft(r().text)}
            onClose={() => setRewinding(null)}
          />
        )}
      </Show>
      <OfflineNote t={s.t} />
      <Composer
        state={s}
        chat={chat}
        fs={props.fs}
        settings={settings()}
        disabled={!settings()?.model || chat.damaged() !== null || chat.role() === 'reader'}
        value={draft()}
        onInput={setDraft}
        onSend={send}
        onFork={() => fork(chat.messages().length - 1)}
        onSetMode={(m) => void setMode(m)}
        ct={ct}
      />
    </section>
  );
}

const CALL_STATE: Record<JournalCall['state'], ChatKey> = {
  pending: 'callPending',
  'waiting-approval': 'callWaiting',
  running: 'callRan',
  done: 'callDone',
  failed: 'callFailed',
  refused: 'callRefused',
};

function Interrupted(props: { journal: TurnJournal; ct: ChatTranslate; onAgain: () => void; onDismiss: () => void }) {
  const ct = props.ct;
  return (
    <div class="banner warning interrupted" role="alert" data-testid="interrupted-turn">
      <div>
        <strong>{ct('interruptedTitle')}</strong>
        <p>{ct('interruptedPrompt', { prompt: props.journal.prompt.length > 200 ? `${props.journal.prompt.slice(0, 199)}…` : props.journal.prompt })}</p>
        <Show when={props.journal.calls.length > 0} fallback={<p>{ct('interruptedNone')}</p>}>
          <p>{ct('interruptedCalls')}</p>
          <ul class="interrupted-calls">
            <For each={props.journal.calls}>
              {(c) => (
                <li data-state={c.state}>
                  <code>{c.name}</code>
                  {c.summary ? ` — ${c.summary}` : ''}: {ct(CALL_STATE[c.state])}
                </li>
              )}
            </For>
          </ul>
        </Show>
        <p class="field-hint">{ct('interruptedNote')}</p>
      </div>
      <div class="banner-actions">
        <button type="button" class="button small" onClick={() => props.onAgain()}>
          {ct('sendAgain')}
        </button>
        <button type="button" class="button small ghost" onClick={() => props.onDismiss()}>
          {ct('dismiss')}
        </button>
      </div>
    </div>
  );
}
