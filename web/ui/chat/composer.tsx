// The composer: the message box with its bar (model, approval mode, Send/Stop), slash commands, the @ file picker,
// pasted or dropped images, the keyboard (Enter sends, Shift+Enter newline, Esc stops, ↑ edits the last message,
// Ctrl/Cmd+K palette) and the shortcuts help. Design and limits: CONTEXT.md.
import './composer.css';
import { createEffect, createMemo, createResource, createSignal, createUniqueId, For, onCleanup, onMount, Show } from 'solid-js';
import { discoverSkills, workspaceSkillRoots, type ContentPart, type WorkspaceFs } from '../../core';
import type { AgentSettings, ApprovalMode } from '../../core/app-agent';
import type { AppState } from '../state/app-state';
import { ApprovalModeControl } from './approval-mode';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';
import { CommandPalette } from './command-palette';
import { commandActions, paletteItems, type ViewHooks } from './composer-actions';
import { droppedFiles, isRefusal, readImage, takesImages, type Attached } from './composer-images';
import { ComposerListbox, optionId, type ListOption } from './composer-listbox';
import { ContextMeter, type ContextMeterControl } from './context-meter';
import { attachMentions, buildFileIndex, mentionAt, mentionToken, MENTION_LIMITS, type AttachNote, type FileIndex } from './composer-mentions';
import type { ComposerKey } from './composer-strings';
import { ModelSwitcher, type ModelSwitcherControl } from './model-switcher';
import { LocalModelBadge } from './local-model-badge';
import { isMac, ShortcutsHelp } from './shortcuts-help';
import { commandList, matchCommands, parseSlash, runCommand, slashQuery } from './slash-commands';

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

const NOTE: Record<AttachNote['reason'], ComposerKey> = {
  missing: 'c.mentionMissing',
  'not-text': 'c.noteNotText',
  'too-large': 'c.noteTooLarge',
  'cut-file': 'c.noteCutFile',
  'cut-total': 'c.noteCutTotal',
  'too-many': 'c.noteTooMany',
};
const KiB = 1024;

/** The typed text of a user message (its first text part: later parts are attached files). */
function typedText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.find((p) => p.type === 'text')?.text ?? '';
}

export function Composer(props: ComposerProps) {
  const ct = props.ct;
  const s = props.state;
  const id = createUniqueId();
  const listId = `${id}-list`;
  const [caret, setCaret] = createSignal(0);
  const [active, setActive] = createSignal(0);
  const [dismissed, setDismissed] = createSignal<string | null>(null);
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

  // Skills are listed when the slash menu or the help first needs them; the file index when the picker opens,
  // again after the agent changed files.
  const [wantSkills, setWantSkills] = createSignal(false);
  const [skills] = createResource(wantSkills, async () => (await discoverSkills(workspaceSkillRoots(props.fs))).skills);
  const commands = createMemo(() => commandList(skills.latest ?? []));
  let index: { epoch: number; value: Promise<FileIndex> } | null = null;
  const [files, setFiles] = createSignal<FileIndex | null>(null);
  function fileIndex() {
    const epoch = s.filesEpoch().n;
    if (!index || index.epoch !== epoch) {
      const value = buildFileIndex(props.fs);
      index = { epoch, value };
      setFiles(null);
      void value.then((f) => index?.value === value && setFiles(f)).catch((e: unknown) => say(ct('c.attachFailed', { message: (e as Error).message }), 'error'));
    }
  }

  type Popup = { kind: 'slash'; query: string } | { kind: 'file'; start: number; query: string };
  const popup = createMemo((): Popup | null => {
    const draft = props.value;
    if (dismissed() === draft) return null;
    const q = slashQuery(draft);
    if (q !== null) return { kind: 'slash', query: q };
    const m = mentionAt(draft, caret());
    return m ? { kind: 'file', ...m } : null;
  });
  const options = createMemo((): ListOption[] => {
    const p = popup();
    if (!p) return [];
    if (p.kind === 'slash') {
      return matchCommands(commands(), p.query).map((c) => ({
        key: c.name,
        label: `/${c.name}`,
        detail: c.kind === 'skill' ? (c.description ?? '') : ct(c.hint),
        ...(c.kind === 'skill' ? { tag: 'skill' } : {}),
      }));
    }
    return (files()?.search(p.query, 30) ?? []).map((path) => {
      const slash = path.lastIndexOf('/');
      return { key: path, label: path.slice(slash + 1), ...(slash > 0 ? { detail: path.slice(0, slash) } : {}) };
    });
  });
  createEffect(() => {
    const kind = popup()?.kind;
    if (kind === 'slash') setWantSkills(true);
    else if (kind === 'file') fileIndex();
  });
  const activeIndex = () => Math.min(active(), Math.max(0, options().length - 1));

  function setDraft(value: string, at = value.length) {
    props.onInput(value);
    setActive(0);
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
    const command = commands().find((c) => c.name === option.key);
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
      setWantSkills(true);
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
    if (pictures.length && !takesImages(config())) return say(ct('c.imageNoSupport', { protocol: config()?.protocol ?? '' }), 'error');
    let attached;
    try {
      attached = await attachMentions(props.fs, text);
    } catch (e) {
      return say(ct('c.attachFailed', { message: (e as Error).message }), 'error');
    }
    const content: string | ContentPart[] =
      attached.parts.length || pictures.length
        ? [...(text ? [{ type: 'text' as const, text }] : []), ...attached.parts, ...pictures.map((p) => ({ type: 'image_url' as const, image_url: { url: p.url } }))]
        : text;
    const said = attached.notes.map((n) =>
      ct(NOTE[n.reason], { path: n.path, file: MENTION_LIMITS.perFileBytes / KiB, total: MENTION_LIMITS.totalBytes / KiB, read: MENTION_LIMITS.maxReadBytes / (KiB * KiB), count: MENTION_LIMITS.maxFiles }),
    );
    setNote(said.length ? { text: said.join(' '), kind: 'info' } : null);
    props.onInput('');
    setImages([]);
    if ((await props.onSend(content)) === false) {
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
        const outcome = await runCommand(commands(), parsed, commandActions(hooks));
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
    const last = [...props.chat.messages()].reverse().find((m) => m.role === 'user' && !(m._meta as { kind?: string } | undefined)?.kind);
    if (!last || last.role !== 'user') return false;
    setDraft(typedText(last.content));
    return true;
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.isComposing) return;
    // A menu with nothing in it (no match, files still listing) leaves Enter to send and ↑ to edit.
    const n = popup() ? options().length : 0;
    if (popup() && e.key === 'Escape') {
      setDismissed(props.value);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (n > 0) {
      if (e.key === 'ArrowDown') setActive((activeIndex() + 1) % n);
      else if (e.key === 'ArrowUp') setActive((activeIndex() - 1 + n) % n);
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

  onMount(() => {
    const onKey = (e: KeyboardEvent) => {
      // By key code, so Ctrl/Cmd+K works on any keyboard layout (a Chinese IME, AZERTY).
      // Not over another dialog (settings, a confirmation): one modal at a time.
      if (e.code === 'KeyK' && (isMac ? e.metaKey : e.ctrlKey) && !e.shiftKey && !e.altKey && !document.querySelector('dialog[open]')) {
        e.preventDefault();
        setPaletteOpen(true);
        return;
      }
      // Esc stops a running turn from anywhere in the page, unless a dialog has it (the textarea handles its own).
      if (e.key !== 'Escape' || e.defaultPrevented || !props.chat.busy()) return;
      if (document.querySelector('dialog[open]') || e.target === box) return;
      props.chat.stop();
    };
    window.addEventListener('keydown', onKey);
    onCleanup(() => window.removeEventListener('keydown', onKey));
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
              onHover={setActive}
              empty={p().kind === 'file' ? (files() ? ct('c.noFiles') : ct('c.filesLoading')) : ct('c.unknownCommand', { name: props.value.trim() })}
              footer={p().kind === 'file' && files()?.cut ? <p class="composer-popup-empty">{ct('c.filesCut', { count: files()!.paths.length })}</p> : undefined}
            />
          )}
        </Show>
        <Show when={images().length > 0}>
          <ul class="composer-images" aria-label={ct('c.attach')}>
            <For each={images()}>
              {(img, i) => (
                <li class="composer-image">
                  <img src={img.url} alt={ct('c.imageAlt', { n: i() + 1 })} title={img.name} />
                  <button type="button" class="composer-image-remove" aria-label={ct('c.removeImage')} title={img.name} onClick={() => setImages((all) => all.filter((x) => x.id !== img.id))}>
                    <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
                      <path d="M6 6l12 12M18 6L6 18" />
                    </svg>
                  </button>
                </li>
              )}
            </For>
          </ul>
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
            setActive(0);
            setDismissed(null);
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
          onBlur={() => setDismissed(props.value)}
          onFocus={() => setDismissed(null)}
        />
        <div class="composer-bar">
          <ModelSwitcher
            configured={config()?.model ?? null}
            current={props.chat.model()}
            onChoose={(name) => props.chat.setModel(name)}
            listModels={() => props.chat.listModels()}
            ct={ct}
            ref={(c) => (model = c)}
          />
          <ApprovalModeControl mode={mode()} onChange={props.onSetMode} ct={ct} />
          <ContextMeter chat={props.chat} ct={ct} locale={s.locale()} ref={(c) => (meter = c)} />
          <LocalModelBadge ct={ct} locale={s.locale()} />
          <span class="composer-hint">{ct('c.slashHint')}</span>
          <Show
            when={props.chat.busy()}
            fallback={
              <button type="submit" class="button primary composer-send" disabled={!canSend()}>
                {ct('send')}
              </button>
            }
          >
            <button type="button" class="button danger composer-send" onClick={() => props.chat.stop()}>
              {ct('stop')}
            </button>
          </Show>
        </div>
      </form>
      <Show when={mode() === 'yolo'}>
        <p class="composer-note yolo" role="note">
          {ct('c.yoloNote')}
        </p>
      </Show>
      <Show when={note()}>
        {(n) => (
          <p class="composer-note" classList={{ error: n().kind === 'error' }} role={n().kind === 'error' ? 'alert' : 'status'}>
            {n().text}
          </p>
        )}
      </Show>
      <Show when={paletteOpen()}>
        <CommandPalette items={paletteItems(hooks)} ct={ct} onClose={() => setPaletteOpen(false)} />
      </Show>
      <Show when={helpOpen()}>
        <ShortcutsHelp commands={commands()} ct={ct} onClose={() => setHelpOpen(false)} />
      </Show>
    </div>
  );
}
