// What the composer's slash commands and the command palette do: the app-level actions (web/ui/state/app-actions.ts,
// shared with the sidebar and the keyboard shortcuts), the view's fork, the session export, the model switch.
import { exportSession, sessionToMarkdown, type SessionStore } from '../../core/page';
import type { AppState } from '../state/app-state';
import { newSession, openSettings, selectSession, selectWorkspace, toggleSidebar } from '../state/app-actions';
import type { ChatTranslate } from './chat-i18n';
import type { PaletteItem } from './command-palette';
import type { CommandActions } from './slash-commands';

const fileName = (title: string, ext: string) =>
  `${title.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 60) || 'session'}.${ext}`;

/** Saves the session as a download (the same files as the session menu's Export JSON / Export Markdown). */
export async function downloadSession(store: SessionStore, id: string, kind: 'md' | 'json'): Promise<void> {
  const data = await exportSession(store, id);
  const [text, type] =
    kind === 'json'
      ? [`${JSON.stringify(data, null, 2)}\n`, 'application/json']
      : [sessionToMarkdown(data.title, data.messages), 'text/markdown'];
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(data.title, kind);
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export interface ViewHooks {
  state: AppState;
  store: SessionStore;
  sessionId: () => string | null;
  fork: () => Promise<void>;
  setModel: (name: string | null) => void;
  openModelMenu: () => void;
  openHelp: () => void;
  /** Opens the context breakdown (/context, the meter). */
  openContext: () => void;
  /** Compacts the open session now (ChatController.compact): a compaction-only turn. */
  compact: (focus?: string) => Promise<void>;
  /** Sends a message (the skill request), with the composer's attachments. */
  sendText: (text: string) => Promise<void>;
  /** A sentence for the person under the composer. */
  say: (text: string, kind: 'info' | 'error') => void;
  ct: ChatTranslate;
}

export function commandActions(v: ViewHooks): CommandActions {
  const needSession = () => {
    const id = v.sessionId();
    if (!id) throw new Error(v.ct('c.noSessionYet'));
    return id;
  };
  return {
    newSession,
    fork: async () => {
      needSession();
      await v.fork();
    },
    setModel: (name) => {
      v.setModel(name);
      v.say(name ? v.ct('c.modelSet', { model: name }) : v.ct('c.modelReset'), 'info');
    },
    openModelMenu: v.openModelMenu,
    exportSession: (kind) => downloadSession(v.store, needSession(), kind),
    openHelp: v.openHelp,
    openContext: v.openContext,
    compact: async (focus) => {
      needSession();
      await v.compact(focus || undefined);
    },
    useSkill: (name, args) => v.sendText(`${v.ct('c.skillPrompt', { name })}${args ? `\n\n${args}` : ''}`),
  };
}

export function paletteItems(v: ViewHooks): PaletteItem[] {
  const ct = v.ct;
  const s = v.state;
  const hasSession = v.sessionId() !== null;
  const commands: PaletteItem[] = [
    { id: 'new', group: 'c.groupCommand', label: ct('c.k.newSession'), keys: '$mod+Shift+O', run: newSession },
    { id: 'sidebar', group: 'c.groupCommand', label: ct('c.toggleSidebar'), keys: '$mod+B', run: toggleSidebar },
    { id: 'settings', group: 'c.groupCommand', label: ct('c.openSettings'), run: openSettings },
    { id: 'model', group: 'c.groupCommand', label: ct('c.cmd.model').replace(/[:：].*$/, ''), run: v.openModelMenu },
    { id: 'help', group: 'c.groupCommand', label: ct('c.shortcuts'), run: v.openHelp },
    { id: 'context', group: 'c.groupCommand', label: ct('meter.cmd.context'), run: v.openContext },
  ];
  if (hasSession) {
    commands.push(
      { id: 'fork', group: 'c.groupCommand', label: ct('c.cmd.fork'), run: () => void s.attempt(v.fork) },
      {
        id: 'compact',
        group: 'c.groupCommand',
        label: ct('meter.compactNow'),
        run: () => void s.attempt(() => v.compact()),
      },
      {
        id: 'export-md',
        group: 'c.groupCommand',
        label: ct('exportMd'),
        run: () => void s.attempt(() => downloadSession(v.store, v.sessionId()!, 'md')),
      },
      {
        id: 'export-json',
        group: 'c.groupCommand',
        label: ct('exportJson'),
        run: () => void s.attempt(() => downloadSession(v.store, v.sessionId()!, 'json')),
      },
    );
  }
  const sessions = s.sessions().map((x): PaletteItem => ({
    id: `s:${x.id}`,
    group: 'c.groupSession',
    label: x.title,
    run: () => selectSession(x.id),
  }));
  const workspaces = s.workspaces().map((w): PaletteItem => ({
    id: `w:${w.id}`,
    group: 'c.groupWorkspace',
    label: w.name,
    run: () => selectWorkspace(w.id),
  }));
  return [...commands, ...sessions, ...workspaces];
}
