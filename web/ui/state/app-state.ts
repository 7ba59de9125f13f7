// App state for the shell: the workspace list, the selection (kept in the URL hash so a reload returns to it),
// global settings, the locale and notices. Everything persistent goes through web/core; this file only keeps
// the reactive copies the components read.
import { createMemo, createSignal, type Accessor } from 'solid-js';
import { type WorkspaceAccess } from '../../core/contracts';
import {
  DEFAULT_GLOBAL_SETTINGS,
  createFolderWorkspace,
  createOpfsWorkspace,
  deleteWorkspace,
  listSessionsOfWorkspace,
  listWorkspaces,
  readGlobalSettings,
  renameWorkspace,
  requestPersistentStorage,
  updateGlobalSettings,
  updateWorkspaceGrant,
  type GlobalSettings,
  type HarnessDb,
  type SessionRecord,
  type WorkspaceRecord,
} from '../../core/page';
import { resolveLocale, translate, type Locale, type Translate } from '../i18n/i18n';
import { codeOf, messageOf } from './errors';

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  text: string;
}

export interface AppState {
  db: HarnessDb;
  workspaces: Accessor<WorkspaceRecord[]>;
  selected: Accessor<WorkspaceRecord | undefined>;
  select(id: string | null): void;
  sessions: Accessor<SessionRecord[]>;
  /** The open session of the selected workspace (null: a new, not yet saved one); kept in the hash as `s=`. */
  session: Accessor<string | null>;
  selectSession(id: string | null): void;
  refreshSessions(): Promise<void>;
  settings: Accessor<GlobalSettings>;
  locale: Accessor<Locale>;
  t: Translate;
  notices: Accessor<Notice[]>;
  notify(kind: Notice['kind'], text: string): void;
  dismiss(id: number): void;
  /** Runs an action and turns a failure into an error notice; resolves to undefined on failure. */
  attempt<T>(action: () => Promise<T>): Promise<T | undefined>;
  refresh(): Promise<void>;
  /** Throws (HarnessError) so the dialog can show the reason next to the name field. */
  createPrivate(name: string): Promise<WorkspaceRecord>;
  createFromFolder(name: string, handle: FileSystemDirectoryHandle, access: WorkspaceAccess): Promise<WorkspaceRecord>;
  rename(id: string, name: string): Promise<WorkspaceRecord>;
  remove(id: string): Promise<void>;
  regrant(id: string, handle: FileSystemDirectoryHandle, access: WorkspaceAccess): Promise<void>;
  updateSettings(patch: Partial<GlobalSettings>): Promise<void>;
  /** Changes whenever any settings record changed (workspace overrides, imports); resources depend on it. */
  settingsEpoch: Accessor<number>;
  settingsChanged(): void;
  /** Changes whenever the agent (a tool or a plugin) wrote or deleted files in the workspace `id`; the Files panel depends on it. */
  filesEpoch: Accessor<{ workspaceId: string; n: number }>;
  filesChanged(workspaceId: string): void;
}

const idFromHash = () => new URLSearchParams(location.hash.slice(1)).get('w');
const sessionFromHash = () => new URLSearchParams(location.hash.slice(1)).get('s');

export function createAppState(db: HarnessDb): AppState {
  const [workspaces, setWorkspaces] = createSignal<WorkspaceRecord[]>([]);
  const [selectedId, setSelectedId] = createSignal<string | null>(idFromHash());
  const [sessions, setSessions] = createSignal<SessionRecord[]>([]);
  const [session, setSession] = createSignal<string | null>(sessionFromHash());
  const [settings, setSettings] = createSignal<GlobalSettings>(DEFAULT_GLOBAL_SETTINGS);
  const [notices, setNotices] = createSignal<Notice[]>([]);
  const [settingsEpoch, setSettingsEpoch] = createSignal(0);
  const [filesEpoch, setFilesEpoch] = createSignal({ workspaceId: '', n: 0 });
  const locale = createMemo(() => resolveLocale(settings().language));
  const t: Translate = (key, params) => translate(locale(), key, params);
  let nextNotice = 1;

  const selected = createMemo(() => {
    const list = workspaces();
    return list.find((w) => w.id === selectedId()) ?? list[0];
  });

  const notify = (kind: Notice['kind'], text: string) => {
    const id = nextNotice++;
    setNotices((all) => [...all.slice(-3), { id, kind, text }]);
    if (kind === 'info') setTimeout(() => dismiss(id), 6000);
  };
  const dismiss = (id: number) => setNotices((all) => all.filter((n) => n.id !== id));

  async function attempt<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      // The stable code first, as every other error the app shows: it is what a person searches for or reports.
      const code = codeOf(error);
      notify('error', code ? `${code}: ${messageOf(error)}` : messageOf(error));
      return undefined;
    }
  }

  async function loadSessions() {
    const w = selected();
    setSessions(w ? await listSessionsOfWorkspace(db, w.id) : []);
  }

  async function refresh() {
    const [list, global] = await Promise.all([listWorkspaces(db), readGlobalSettings(db)]);
    setWorkspaces(list);
    setSettings(global);
    await loadSessions();
  }

  function select(id: string | null) {
    if (id !== (selected()?.id ?? null)) setSession(null);
    setSelectedId(id);
    const sid = session();
    const hash = id ? `#w=${id}${sid ? `&s=${sid}` : ''}` : '';
    if (location.hash !== hash) history.replaceState(null, '', hash || location.pathname + location.search);
    void loadSessions();
  }

  window.addEventListener('hashchange', () => {
    setSession(sessionFromHash());
    select(idFromHash());
  });

  const afterCreate = async (record: WorkspaceRecord) => {
    await refresh();
    select(record.id);
    // A person who keeps work here wants it kept: ask once there is something worth keeping.
    void requestPersistentStorage();
    return record;
  };

  return {
    db,
    workspaces,
    selected,
    select,
    sessions,
    session,
    selectSession(id) {
      setSession(id);
      const w = selected()?.id ?? null;
      if (w) select(w);
    },
    refreshSessions: loadSessions,
    settings,
    locale,
    t,
    notices,
    notify,
    dismiss,
    attempt,
    refresh,
    createPrivate: async (name) => afterCreate(await createOpfsWorkspace(db, name)),
    createFromFolder: async (name, handle, access) =>
      afterCreate(await createFolderWorkspace(db, name, handle, access)),
    async rename(id, name) {
      const record = await renameWorkspace(db, id, name);
      await refresh();
      return record;
    },
    async remove(id) {
      await deleteWorkspace(db, id);
      if (selectedId() === id) select(null);
      await refresh();
    },
    async regrant(id, handle, access) {
      await updateWorkspaceGrant(db, id, handle, access);
      await refresh();
    },
    async updateSettings(patch) {
      setSettings(await updateGlobalSettings(db, patch));
      setSettingsEpoch((n) => n + 1);
    },
    settingsEpoch,
    filesEpoch,
    filesChanged: (workspaceId) => setFilesEpoch((e) => ({ workspaceId, n: e.n + 1 })),
    settingsChanged() {
      setSettingsEpoch((n) => n + 1);
      void refresh();
    },
  };
}
