import { createEffect, createSignal, lazy, Show, Suspense } from 'solid-js';
import { requestPersistentStorage, type WorkspaceKind } from '../core';
import { NewWorkspaceDialog } from './components/new-workspace-dialog';
import { Notices } from './components/notices';
import { Sidebar } from './components/sidebar';
import { Welcome } from './components/welcome';
import { WorkspaceView } from './components/workspace-view';
import { registerServiceWorker } from './pwa/register-service-worker';
import type { AppState } from './state/app-state';

const SettingsDialog = lazy(() => import('./components/settings-dialog'));

export function Shell(props: { state: AppState }) {
  const s = props.state;
  const [newWorkspace, setNewWorkspace] = createSignal<WorkspaceKind | null>(null);
  const [settingsOpen, setSettingsOpen] = createSignal(false);
  const [updateReady, setUpdateReady] = createSignal(false);

  const applyUpdate = registerServiceWorker({
    onNeedRefresh: () => setUpdateReady(true),
    onOfflineReady: () => s.notify('info', s.t('update.offlineReady')),
    onError: () => undefined, // offline use is a bonus; the app works without a service worker
  });

  createEffect(() => {
    const root = document.documentElement;
    root.lang = s.locale() === 'zh' ? 'zh-CN' : 'en';
    const theme = s.settings().theme;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
  });
  if (s.workspaces().length > 0) void requestPersistentStorage();

  return (
    <div class="shell">
      <Sidebar state={s} onNewWorkspace={() => setNewWorkspace('folder')} onOpenSettings={() => setSettingsOpen(true)} />
      <main class="main" id="main">
        {/* Keyed by id: switching workspaces resets the view; renaming one keeps its state. */}
        <Show when={s.selected()?.id} keyed fallback={<Welcome t={s.t} onCreate={(kind) => setNewWorkspace(kind)} />}>
          {(_id) => <WorkspaceView state={s} workspace={s.selected()!} />}
        </Show>
      </main>
      <Show when={newWorkspace()}>{(kind) => <NewWorkspaceDialog state={s} initialKind={kind()} onClose={() => setNewWorkspace(null)} />}</Show>
      <Show when={settingsOpen()}>
        <Suspense>
          <SettingsDialog state={s} onClose={() => setSettingsOpen(false)} />
        </Suspense>
      </Show>
      <Notices state={s} updateReady={updateReady} onUpdate={() => void applyUpdate()} onLater={() => setUpdateReady(false)} />
    </div>
  );
}
