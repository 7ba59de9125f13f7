// The composer: the message box with its popup menu (slash commands, the @ file picker: composer-popup.ts), the
// attached images (attached-images.tsx), the bar (model, approval mode, meter, Send/Stop: composer-bar.tsx), and the
// keyboard (Enter sends, Shift+Enter newline, Esc stops, ↑ edits the last message; Ctrl/Cmd+K palette:
// composer-shortcuts.ts) with the shortcuts help. Design and limits: CONTEXT.md.
import './composer.css';
import { createSignal, createUniqueId, Show } from 'solid-js';
import type { ContentPart, WorkspaceFs } from '../../core/contracts';
import type { AgentSettings, ApprovalMode } from '../../core/page';
import type { AppState } from '../state/app-state';
import { AttachedImages } from './attached-images';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';
import { CommandPalette } from './command-palette';
import { commandActions, paletteItems, type ViewHooks } from './composer-actions';
import { ComposerBar } from './composer-bar';
import { droppedFiles, isRefusal, readImage, takesImages, type Attached } from './composer-images';
import { ComposerListbox, optionId } from './composer-listbox';
import { composeMessage, typedText } from './composer-message';
import { mentionToken } from './composer-mentions';
import { createComposerPopup } from './composer-popup';
import { usePageShortcuts } from './composer-shortcuts';
import type { ContextMeterControl } from './context-meter';
import type { ModelSwitcherControl } from './model-switcher';
import { ShortcutsHelp } from './shortcuts-help';
import { parseSlash, runCommand } from './slash-commands';

export interface ComposerProps {
  state: AppState;
  chat: ChatController;
  fs: WorkspaceFs;
  settings: AgentSettings | undefined;
  disabled: boolean;
  value: string;
  onInput: (value: string) => void;
  /** Sends a message: the typed text, or text + attached files + images as parts. */
  /** False: the turn could not start and nothing was sent (the composer puts the draft back). */
  onSend: (content: string | ContentPart[]) => Promise<boolean | void>;
  onFork: () => Promise<void>;
  onSetMode: (mode: ApprovalMode) => void;
  ct: ChatTranslate;
}

export function Composer(props: ComposerProps) {
  const ct = props.ct;
  const s = props.state;
  const id = createUniqueId();
  const listId = `${id}-list`;
  const [caret, setCaret] = createSignal(0);
  const [images, setImages] = createSignal<Attached[]>([]);
  const [note, setNote] = createSignal<{ text: string; kind: 'info' | 'error' } | null>(null);
  const [paletteOpen, setPaletteOpen] = createSignal(false);
  const [helpOpen, setHelpOpen] = createSignal(false);
  const [sending, setSending] = createSignal(false);
  let box: HTMLTextAreaElement | undefined;
  let model: ModelSwitcherControl | undefined;
  let meter: ContextMeterControl | undefined;

  const config = () => props.settings?.model?.config ?? null;
  const say = (text: string, kind: 'info' | 'error'): void => void setNote({ text, kind });
  const menu = createComposerPopup({
    state: s,
    fs: props.fs,
    draft: () => props.value,
    caret,
    ct,
    onIndexFailed: (message) => say(ct('c.attachFailed', { message }), 'error'),
  });
  const { popup, options, activeIndex } = menu;

  function setDraft(value: string, at = value.length) {
    props.onInput(value);
    menu.setActive(0);
    queueMicrotask(() => {
      if (!box) return;
      box.focus();
      box.setSelectionRange(at, at);
      setCaret(at);
    });
  }

  function pick(i: number) {
    const p = popup();
    const option = options()[i];
    if (!p || !option) return;
    if (p.kind === 'file') {
      const token = `${mentionToken(option.key)} `;
      const end = p.start + 1 + p.query.length;
      setDraft(props.value.slice(0, p.start) + token + props.value.slice(end), p.start + token.length);
      return;
    }
    const command = menu.commands().find((c) => c.name === option.key);
    if (command?.takesArgs) setDraft(`/${option.key} `);
    else void submit(`/${option.key}`);
  }

  const hooks: ViewHooks = {
    state: s,
    store: props.chat.agent.store,
    sessionId: props.chat.sessionId,
    fork: props.onFork,
    setModel: (name) => props.chat.setModel(name),
    openModelMenu: () => model?.open(),
    openHelp: () => {
      menu.wantSkills();
      setHelpOpen(true);
    },
    openContext: () => meter?.openBreakdown(),
    compact: (focus) => props.chat.compact(focus),
    sendText: (text) => sendMessage(text),
    say,
    ct,
  };

  async function addImages(list: File[]) {
    if (list.length === 0) return;
    if (!takesImages(config())) return say(ct('c.imageNoSupport', { protocol: config()?.protocol ?? '' }), 'error');
    for (const file of list) {
      const r = await readImage(file, images().length);
      if (isRefusal(r)) say(ct(r.key, r.params), 'error');
      else setImages((all) => [...all, r]);
    }
  }

  /** Builds the message (text, attached files, images) and sends it; the draft stays when it cannot be sent. */
  async function sendMessage(text: string): Promise<void> {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return say(ct('c.offline'), 'error');
    const pictures = images();
    if (pictures.length && !takesImages(config()))
      return say(ct('c.imageNoSupport', { protocol: config()?.protocol ?? '' }), 'error');
    let message;
    try {
      message = await composeMessage(props.fs, text, pictures, ct);
    } catch (e) {
      return say(ct('c.attachFailed', { message: (e as Error).message }), 'error');
    }
    setNote(message.notes.length ? { text: message.notes.join(' '), kind: 'info' } : null);
    props.onInput('');
    setImages([]);
    if ((await props.onSend(message.content)) === false) {
      // Refused before anything was sent (a turn still ending, another tab writing this session): nothing is lost.
      props.onInput(text);
      setImages(pictures);
      say(ct('c.notSent'), 'error');
    }
  }

  async function submit(raw = props.value) {
    if (props.chat.busy() || props.disabled || sending()) return;
    const text = raw.trim();
    if (!text && images().length === 0) return;
    setSending(true);
    try {
      const parsed = parseSlash(text);
      if (parsed) {
        const outcome = await runCommand(menu.commands(), parsed, commandActions(hooks));
        if (!outcome.ok) return say(ct(outcome.error, outcome.params), 'error');
        props.onInput('');
        return;
      }
      await sendMessage(text);
    } catch (e) {
      say((e as Error).message, 'error');
    } finally {
      setSending(false);
    }
  }

  function editLast() {
    const last = [...props.chat.messages()]
      .reverse()
      .find((m) => m.role === 'user' && !(m._meta as { kind?: string } | undefined)?.kind);
    if (!last || last.role !== 'user') return false;
    setDraft(typedText(last.content));
    return true;
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.isComposing) return;
    // A menu with nothing in it (no match, files still listing) leaves Enter to send and ↑ to edit.
    const n = popup() ? options().length : 0;
    if (popup() && e.key === 'Escape') {
      menu.dismiss(props.value);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (n > 0) {
      if (e.key === 'ArrowDown') menu.setActive((activeIndex() + 1) % n);
      else if (e.key === 'ArrowUp') menu.setActive((activeIndex() - 1 + n) % n);
      else if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') pick(activeIndex());
      else return;
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    } else if (e.key === 'Escape' && props.chat.busy()) {
      e.preventDefault();
      props.chat.stop();
    } else if (e.key === 'ArrowUp' && props.value === '' && editLast()) {
      e.preventDefault();
    }
  }

  usePageShortcuts({
    openPalette: () => setPaletteOpen(true),
    busy: () => props.chat.busy(),
    stop: () => props.chat.stop(),
    box: () => box,
  });

  const canSend = () => !props.disabled && !sending() && (props.value.trim() !== '' || images().length > 0);
  const mode = () => props.settings?.approval ?? 'ask';

  return (
    <div class="composer-wrap">
      <form
        class="composer"
        classList={{ 'has-popup': popup() !== null }}
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        onDragOver={(e) => {
          if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
        }}
        onDrop={(e) => {
          if (!e.dataTransfer?.files.length) return;
          e.preventDefault();
          void addImages(droppedFiles(e.dataTransfer));
        }}
      >
        <Show when={popup()}>
          {(p) => (
            <ComposerListbox
              id={listId}
              label={p().kind === 'slash' ? ct('c.commands') : ct('c.files')}
              options={options()}
              active={activeIndex()}
              onPick={pick}
              onHover={menu.setActive}
              empty={
                p().kind === 'file'
                  ? menu.files()
                    ? ct('c.noFiles')
                    : ct('c.filesLoading')
                  : ct('c.unknownCommand', { name: props.value.trim() })
              }
              footer={
                p().kind === 'file' && menu.files()?.cut ? (
                  <p class="composer-popup-empty">{ct('c.filesCut', { count: menu.files()!.paths.length })}</p>
                ) : undefined
              }
            />
          )}
        </Show>
        <Show when={images().length > 0}>
          <AttachedImages
            images={images()}
            onRemove={(gone) => setImages((all) => all.filter((x) => x.id !== gone))}
            ct={ct}
          />
        </Show>
        <label for={id} class="visually-hidden">
          {ct('message')}
        </label>
        <textarea
          ref={(el) => (box = el)}
          id={id}
          rows={2}
          placeholder={ct('placeholder')}
          value={props.value}
          disabled={props.disabled}
          aria-controls={popup() ? listId : undefined}
          aria-activedescendant={popup() && options().length ? optionId(listId, activeIndex()) : undefined}
          aria-autocomplete="list"
          onInput={(e) => {
            props.onInput(e.currentTarget.value);
            setCaret(e.currentTarget.selectionStart);
            menu.setActive(0);
            menu.dismiss(null);
            if (note()?.kind === 'error') setNote(null);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            const list = droppedFiles(e.clipboardData);
            if (list.length === 0) return;
            e.preventDefault();
            void addImages(list);
          }}
          onBlur={() => menu.dismiss(props.value)}
          onFocus={() => menu.dismiss(null)}
        />
        <ComposerBar
          chat={props.chat}
          configured={config()?.model ?? null}
          mode={mode()}
          onSetMode={props.onSetMode}
          canSend={canSend()}
          locale={s.locale()}
          ct={ct}
          modelRef={(c) => (model = c)}
          meterRef={(c) => (meter = c)}
        />
      </form>
      <Show when={mode() === 'yolo'}>
        <p class="composer-note yolo" role="note">
          {ct('c.yoloNote')}
        </p>
      </Show>
      <Show when={note()}>
        {(n) => (
          <p
            class="composer-note"
            classList={{ error: n().kind === 'error' }}
            role={n().kind === 'error' ? 'alert' : 'status'}
          >
            {n().text}
          </p>
        )}
      </Show>
      <Show when={paletteOpen()}>
        <CommandPalette items={paletteItems(hooks)} ct={ct} onClose={() => setPaletteOpen(false)} />
      </Show>
      <Show when={helpOpen()}>
        <ShortcutsHelp commands={menu.commands()} ct={ct} onClose={() => setHelpOpen(false)} />
      </Show>
    </div>
  );
}
