// The sidebar: workspaces, the selected workspace's sessions (search, grouped by day), settings. A column that
// collapses (Toggle sidebar, Ctrl/Cmd+B) on wide screens; below 768 px a drawer over the content, closed by
// default, closed again by choosing something, Escape or a click outside (the shell's backdrop).
import { createMemo, createSignal, For, Show } from 'solid-js';
import type { Translate } from '../i18n/i18n';
import { newSession, newWorkspace, openSettings, selectWorkspace, toggleSidebar } from '../state/app-actions';
import type { AppState } from '../state/app-state';
import { layoutState } from '../state/layout-state';
import { FolderIcon, GearIcon, LockIcon, PlusIcon } from './icons';
import { CloseIcon, DownloadIcon, NewChatIcon, SidebarIcon } from './layout-icons';
import { rovingKeys, tabStop } from './roving-list';
import { SessionList } from './session-list';

/** The one "Toggle sidebar" button, at the start of the top bar. */
export function SidebarToggle(props: { t: Translate }) {
  const layout = layoutState();
  return (
    <button
      type="button"
      class="icon-button sidebar-toggle"
      aria-label={props.t('layout.toggleSidebar')}
      title={`${props.t('layout.toggleSidebar')} (Ctrl+B)`}
      aria-expanded={layout.sidebarOpen()}
      aria-controls="sidebar"
      onClick={() => toggleSidebar()}
    >
      <SidebarIcon />
    </button>
  );
}

export function Sidebar(props: { state: AppState; install?: (() => void) | null }) {
  const s = props.state;
  const t = s.t;
  const layout = layoutState();
  // The workspaces are one Tab stop, as the sessions are (roving-list.ts).
  const [remembered, setRemembered] = createSignal<string | null>(null);
  const stop = createMemo(() =>
    tabStop(
      s.workspaces().map((w) => w.id),
      remembered(),
      s.selected()?.id ?? null,
    ),
  );
  return (
    <nav
      id="sidebar"
      class="sidebar"
      classList={{ open: layout.sidebarOpen() }}
      aria-label={t('sidebar.navigation')}
      inert={!layout.sidebarOpen()}
    >
      <div class="brand">
        <img src="/logo.svg" alt="" width="28" height="28" />
        <span class="brand-name">i</span>
        <Show when={layout.narrow()}>
          <button
            type="button"
            class="icon-button brand-close"
            aria-label={t('layout.closeSidebar')}
            onClick={() => layout.setSidebarOpen(false)}
          >
            <CloseIcon />
          </button>
        </Show>
      </div>
      <button type="button" class="button primary block" onClick={() => newWorkspace()}>
        <PlusIcon />
        {t('sidebar.newWorkspace')}
      </button>

      <section class="sidebar-section" aria-labelledby="sidebar-workspaces">
        <h2 id="sidebar-workspaces" class="section-title">
          {t('sidebar.workspaces')}
        </h2>
        <Show when={s.workspaces().length > 0} fallback={<p class="empty-hint">{t('sidebar.noWorkspaces')}</p>}>
          <ul class="nav-list workspace-list" role="list" onKeyDown={rovingKeys('a.nav-item')}>
            <For each={s.workspaces()}>
              {(w) => (
                <li>
                  <a
                    href={`#w=${w.id}`}
                    class="nav-item"
                    aria-current={s.selected()?.id === w.id ? 'page' : undefined}
                    tabIndex={stop() === w.id ? 0 : -1}
                    onFocus={() => setRemembered(w.id)}
                    onClick={(e) => {
                      e.preventDefault();
                      selectWorkspace(w.id);
                    }}
                  >
                    {w.kind === 'opfs' ? <LockIcon /> : <FolderIcon />}
                    <span class="nav-label">{w.name}</span>
                    <span class="visually-hidden">
                      {w.kind === 'opfs' ? t('sidebar.private') : t('sidebar.folder')}
                    </span>
                  </a>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section class="sidebar-section sessions-section" aria-labelledby="sidebar-sessions">
        <div class="section-title-row">
          <h2 id="sidebar-sessions" class="section-title">
            {t('sidebar.sessions')}
          </h2>
          <Show when={s.selected()}>
            <button
              type="button"
              class="icon-button"
              aria-label={t('sidebar.newSession')}
              title={`${t('sidebar.newSession')} (Ctrl+Shift+O)`}
              onClick={() => newSession()}
            >
              <NewChatIcon />
            </button>
          </Show>
        </div>
        <Show
          when={s.selected()?.id}
          keyed
          fallback={<p class="empty-hint">{t('sidebar.selectWorkspaceForSessions')}</p>}
        >
          {/* Keyed by workspace: a search typed in one workspace does not carry over to the next. */}
          {(_w) => <SessionList state={s} />}
        </Show>
      </section>

      <div class="sidebar-footer">
        <Show when={props.install}>
          {(install) => (
            <button
              type="button"
              class="button ghost block"
              title={t('layout.installHint')}
              onClick={() => install()()}
            >
              <DownloadIcon />
              {t('layout.install')}
            </button>
          )}
        </Show>
        <button type="button" class="button ghost block" onClick={() => openSettings()}>
          <GearIcon />
          {t('sidebar.settings')}
        </button>
      </div>
    </nav>
  );
}
