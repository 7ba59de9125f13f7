// Loaded lazily (with marked and DOMPurify): the chat of one workspace. It owns the chat controller, the draft and
// the agent's settings, and composes what a person sees: the session's title and menu in the top bar and the Changes
// tab (session-header.tsx), the first-run invitation, the log (chat-log.tsx: session notices, messages, the turn in
// flight, approvals, the turn's status), the rewind dialog and the composer.
import './chat.css';
import { createEffect, createMemo, createResource, createSignal, on, onCleanup, Show, type Accessor } from 'solid-js';
import { toErrorData, type ErrorData, type WorkspaceFs } from '../../core/contracts';
import { forkSession, type WorkspaceRecord } from '../../core/page';
import { saveApprovalMode, type ApprovalMode } from '../../core/page';
import type { AppState } from '../state/app-state';
import { chatTranslator } from './chat-i18n';
import { errorText } from './core-text';
import { createChatController } from './chat-controller';
import { chatItems, keepUnchanged, type ChatItem } from './chat-model';
import { ChatLog } from './chat-log';
import { Composer } from './composer';
import { ComposerModelContext } from './message-actions';
import { ReadOnlyBanner } from './turn-notices';
import { ChangesTab, SessionHeader } from './session-header';
import { OfflineNote } from './offline-note';
import { FirstRun } from '../onboarding/first-run';
import { RewindDialog } from './rewind-dialog';
import { createUndoEvents } from './undo-events';
import { createSessionChanges } from '../changes/changes-source';

export default function ChatView(props: {
  state: AppState;
  workspace: WorkspaceRecord;
  fs: WorkspaceFs;
  headerSlot: Accessor<HTMLElement | undefined>;
  changesSlot?: Accessor<HTMLElement | undefined>;
}) {
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
  const sessionChanges = createSessionChanges({
    sessionId: chat.sessionId,
    undo: chat.undo,
    filesEpoch: () => (chat.busy() ? null : s.filesEpoch().n),
  });
  // Rewinds, reverts and redos of the open session, shown as lines between its turns; the rewind dialog's target.
  const undoEvents = createUndoEvents({ db: s.db, workspaceId: props.workspace.id, chat });
  const [rewinding, setRewinding] = createSignal<{ index: number; text: string } | null>(null);
  // The agent Worker answers this first; if it cannot start, the chat says so (with its code) instead of breaking.
  const [agentError, setAgentError] = createSignal<ErrorData | null>(null);
  // Read through `.latest`: a refetch (a mode chosen, settings saved) must not suspend the chat, which would take
  // its DOM away for a moment and with it the person's focus.
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

  // Items keep their objects across reloads (the log keeps their DOM); the log shows the last of a long session.
  const items = createMemo<ChatItem[]>((previous) => keepUnchanged(previous, chatItems(chat.messages())), []);

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
      <SessionHeader state={s} chat={chat} changes={sessionChanges} slot={props.headerSlot} ct={ct} />
      <ChangesTab
        state={s}
        workspaceId={props.workspace.id}
        chat={chat}
        changes={sessionChanges}
        slot={props.changesSlot}
      />
      {/* No usable model: the first-run invitation and guided setup; after it, starter prompts for the message box. */}
      <Show when={agentError()}>
        {(e) => (
          <p class="banner error chat-banner" role="alert">
            {e().code}: {errorText(e(), s.locale())}
          </p>
        )}
      </Show>
      <FirstRun
        state={s}
        settings={settings.latest}
        fs={props.fs}
        onPrompt={setDraft}
        empty={items().length === 0 && !chat.live() && !chat.damaged() && !chat.failure() && !chat.interrupted()}
      />
      <ReadOnlyBanner chat={chat} ct={ct} />
      {/* The composer names the model; an answer names its own only when it was another (the model label once). */}
      <ComposerModelContext.Provider value={() => chat.model() ?? settings.latest?.model?.config?.model ?? null}>
        <ChatLog
          chat={chat}
          items={items}
          events={undoEvents}
          ct={ct}
          locale={s.locale()}
          onDraft={setDraft}
          onFork={fork}
          onRecover={() => void recover()}
          onRewind={(index, text) => setRewinding({ index, text })}
        />
      </ComposerModelContext.Provider>
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
        settings={settings.latest}
        disabled={!settings.latest?.model || chat.damaged() !== null || chat.role() === 'reader'}
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
