import { For, Show } from 'solid-js';
import type { AppState } from '../state/app-state';
import { ChatIcon, FolderIcon, GearIcon, LockIcon, PlusIcon } from './icons';

export function Sidebar(props: { state: AppState; onNewWorkspace: () => void; onOpenSettings: () => void }) {
  const s = props.state;
  const t = s.t;
  return (
    <nav class="sidebar" aria-label={t('sidebar.navigation')}>
      <div class="brand">
        <img src="/logo.svg" alt="" width="28" height="28" />
        <span class="brand-name">i</span>
      </div>
      <button type="button" class="button primary block" onClick={() => props.onNewWorkspace()}>
        <PlusIcon />
        {t('sidebar.newWorkspace')}
      </button>

      <section class="sidebar-section" aria-labelledby="sidebar-workspaces">
        <h2 id="sidebar-workspaces" class="section-title">
          {t('sidebar.workspaces')}
        </h2>
        <Show when={s.workspaces().length > 0} fallback={<p class="empty-hint">{t('sidebar.noWorkspaces')}</p>}>
          <ul class="nav-list" role="list">
            <For each={s.workspaces()}>
              {(w) => (
                <li>
                  <a
                    href={`#w=${w.id}`}
                    class="nav-item"
                    aria-current={s.selected()?.id === w.id ? 'page' : undefined}
                    onClick={(e) => {
                      e.preventDefault();
                      s.select(w.id);
                    }}
                  >
                    {w.kind === 'opfs' ? <LockIcon /> : <FolderIcon />}
                    <span class="nav-label">{w.name}</span>
                    <span class="visually-hidden">{w.kind === 'opfs' ? t('sidebar.private') : t('sidebar.folder')}</span>
                  </a>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </section>

      <section class="sidebar-section" aria-labelledby="sidebar-sessions">
        <div class="section-title-row">
          <h2 id="sidebar-sessions" class="section-title">
            {t('sidebar.sessions')}
          </h2>
          <Show when={s.selected()}>
            <button type="button" class="icon-button" aria-label={t('sidebar.newSession')} title={t('sidebar.newSession')} onClick={() => s.selectSession(null)}>
              <PlusIcon />
            </button>
          </Show>
        </div>
        <Show when={s.selected()} fallback={<p class="empty-hint">{t('sidebar.selectWorkspaceForSessions')}</p>}>
          <Show when={s.sessions().length > 0} fallback={<p class="empty-hint">{t('sidebar.noSessions')}</p>}>
            <ul class="nav-list" role="list">
              <For each={s.sessions()}>
                {(session) => (
                  <li>
                    <a
                      href={`#w=${session.workspaceId}&s=${session.id}`}
                      class="nav-item"
                      aria-current={s.session() === session.id ? 'page' : undefined}
                      onClick={(e) => {
                        e.preventDefault();
                        s.selectSession(session.id);
                      }}
                    >
                      <ChatIcon />
                      <span class="nav-label">{session.title}</span>
                    </a>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </Show>
      </section>

      <div class="sidebar-footer">
        <button type="button" class="button ghost block" onClick={() => props.onOpenSettings()}>
          <GearIcon />
          {t('sidebar.settings')}
        </button>
      </div>
    </nav>
  );
}
