import { createEffect, createSignal, lazy, onCleanup, Show, Suspense } from 'solid-js';
import { requestPersistentStorage, type WorkspaceKind } from '../core/page';
import { Notices } from './components/notices';
import { Sidebar, SidebarToggle } from './components/sidebar';
import { Welcome } from './components/welcome';
import { WorkspaceView } from './components/workspace-view';
import { registerServiceWorker } from './pwa/register-service-worker';
import { bindAppActions, focusMessageBox, installAppShortcuts } from './state/app-actions';
import type { AppState } from './state/app-state';
import { layoutState } from './state/layout-state';

const SettingsDialog = lazy(() => import('./components/settings-dialog'));
// Opened by a click: its .zip import brings zip.js, which the first screen does not need (issue 30).
const NewWorkspaceDialog = lazy(() =>
  import('./components/new-workspace-dialog').then((m) => ({ default: m.NewWorkspaceDialog })),
);

/** Chromium's install offer (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
}

export function Shell(props: { state: AppState }) {
  const s = props.state;
  const layout = layoutState();
  // What the New workspace dialog opens with, and whether the person already chose it (a welcome card).
  const [newWorkspace, setNewWorkspace] = createSignal<{ kind: WorkspaceKind; chosen: boolean } | null>(null);
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [updateReady, setUpdateReady] = createSignal(false);
  const [installOffer, setInstallOffer] = createSignal<BeforeInstallPromptEvent | null>(null);

  const applyUpdate = registerServiceWorker({
    onNeedRefresh: () => setUpdateReady(true),
    onOfflineReady: () => s.notify('info', s.t('update.offlineReady')),
    onError: () => undefined, // offline use is a bonus; the app works without a service worker
  });

  onCleanup(
    bindAppActions({
      state: s,
      openSettings: () => setSettingsOpen(true),
      newWorkspace: () => setNewWorkspace({ kind: 'folder', chosen: false }),
    }),
  );
  onCleanup(installAppShortcuts());

  // The browser offers installation only when it judges the app installable; the button exists only then.
  const onInstallOffer = (e: Event) => {
    e.preventDefault(); // keep the offer for our button instead of the browser's mini-infobar
    setInstallOffer(e as BeforeInstallPromptEvent);
  };
  const onInstalled = () => setInstallOffer(null);
  window.addEventListener('beforeinstallprompt', onInstallOffer);
  window.addEventListener('appinstalled', onInstalled);
  onCleanup(() => {
    window.removeEventListener('beforeinstallprompt', onInstallOffer);
    window.removeEventListener('appinstalled', onInstalled);
  });
  const install = () => {
    const offer = installOffer();
    if (!offer) return;
    setInstallOffer(null); // an offer can be prompted once
    void offer.prompt().catch(() => undefined);
  };

  createEffect(() => {
    const root = document.documentElement;
    root.lang = s.locale() === 'zh' ? 'zh-CN' : 'en';
    const theme = s.settings().theme;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  });
  if (s.workspaces().length > 0) void requestPersistentStorage();

  return (
    <div class="shell" classList={{ 'sidebar-closed': !layout.sidebarOpen(), narrow: layout.narrow() }}>
      {/* The first Tab stop: past the sidebar and the top bar, straight to where a person types (to the main
          region when there is no message box: the welcome screen, a folder whose access is not granted yet). */}
      <a
        class="skip-link"
        href="#main"
        onClick={(e) => {
          if (focusMessageBox()) e.preventDefault();
        }}
      >
        {s.selected() ? s.t('layout.skipToMessage') : s.t('layout.skipToMain')}
      </a>
      <Sidebar state={s} install={installOffer() ? install : null} />
      <Show when={layout.narrow() && layout.sidebarOpen()}>
        {/* A click beside the drawer closes it, as with any sheet over the content. */}
        <div class="drawer-backdrop" aria-hidden="true" onClick={() => layout.setSidebarOpen(false)} />
      </Show>
      <main class="main" id="main" tabIndex={-1}>
        {/* Keyed by id: switching workspaces resets the view; renaming one keeps its state. */}
        <Show
          when={s.selected()?.id}
          keyed
          fallback={
            <div class="welcome-screen">
              <header class="topbar">
                <SidebarToggle t={s.t} />
              </header>
              <Welcome t={s.t} onCreate={(kind) => setNewWorkspace({ kind, chosen: true })} />
            </div>
          }
        >
          {(_id) => <WorkspaceView state={s} workspace={s.selected()!} />}
        </Show>
      </main>
      <Show when={newWorkspace()}>
        {(choice) => (
          <Suspense>
            <NewWorkspaceDialog
              state={s}
              initialKind={choice().kind}
              kindChosen={choice().chosen}
              onClose={() => setNewWorkspace(null)}
            />
          </Suspense>
        )}
      </Show>
      <Show when={settingsOpen()}>
        <Suspense>
          <SettingsDialog state={s} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      </Show>
      <Notices
        state={s}
        updateReady={updateReady}
        onUpdate={() => void applyUpdate()}
        onLater={() => setUpdateReady(false)}
      />
    </div>
  );
}
