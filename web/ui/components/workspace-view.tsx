import { createResource, createSignal, Match, Show, Switch } from 'solid-js';
import { createFsaWorkspaceFs } from '../../core/contracts';
import {
  effectiveSettings,
  openWorkspaceFs,
  pickFolder,
  queryWorkspaceAccess,
  readWorkspaceSettings,
  requestWorkspaceAccess,
  type WorkspaceRecord,
} from '../../core/page';
import type { AppState } from '../state/app-state';
import { layoutState } from '../state/layout-state';
import { ChatSlot } from './chat-slot';
import { ConfirmDialog } from './dialog';
import { errorText } from './error-text';
import { FilesPanel } from './files-panel';
import { FolderIcon } from './icons';
import { RenameDialog } from './rename-dialog';
import { SidePanel } from './side-panel';
import { WorkspaceHeader } from './workspace-header';

export function WorkspaceView(props: { state: AppState; workspace: WorkspaceRecord }) {
  const s = props.state;
  const t = s.t;
  const layout = layoutState();
  const [confirmDelete, setConfirmDelete] = createSignal(false);
  // Where the chat view puts the open session's title and menu: the top bar's middle.
  const [sessionSlot, setSessionSlot] = createSignal<HTMLElement>();
  // Where the chat view puts the Changes panel (it needs the chat's controller, which lives in the lazy chat chunk).
  const [changesSlot, setChangesSlot] = createSignal<HTMLElement>();
  const [renaming, setRenaming] = createSignal(false);
  const [access, { refetch: recheckAccess }] = createResource(
    () => props.workspace,
    (w) => queryWorkspaceAccess(w),
  );
  const [fs] = createResource(
    () => access() === 'granted' && props.workspace,
    (w) =>
      openWorkspaceFs(w, (handle, mode) =>
        createFsaWorkspaceFs(handle, { access: mode, rootName: w.kind === 'opfs' ? w.name : handle.name }),
      ),
  );
  const [overrides] = createResource(
    () => ({ id: props.workspace.id, epoch: s.settingsEpoch() }),
    ({ id }) => readWorkspaceSettings(s.db, id),
  );
  const showHidden = () => effectiveSettings(s.settings(), overrides.latest).showHiddenFiles;
  const folderName = () => props.workspace.handle?.name ?? props.workspace.name;

  const filesTab = () => (
    <Show
      when={fs()}
      fallback={
        <section class="files-panel panel" aria-label={t('files.title')}>
          <div class="empty-state">
            <FolderIcon />
            <p>
              {fs.error
                ? errorText(fs.error, 'E_WORKSPACE_OPEN_FAILED')
                : access.loading || fs.loading
                  ? t('files.loading')
                  : t('files.locked')}
            </p>
          </div>
        </section>
      }
    >
      {(workspaceFs) => (
        <FilesPanel state={s} fs={workspaceFs()} showHidden={showHidden()} onAccessLost={() => void recheckAccess()} />
      )}
    </Show>
  );

  async function restore() {
    // Runs inside the click: requestPermission needs the user gesture.
    await s.attempt(() => requestWorkspaceAccess(props.workspace));
    await recheckAccess();
  }
  async function chooseAgain() {
    const handle = await s.attempt(() => pickFolder(props.workspace.access));
    if (handle) await s.attempt(() => s.regrant(props.workspace.id, handle, props.workspace.access));
  }

  return (
    <div class="workspace">
      <WorkspaceHeader
        state={s}
        workspace={props.workspace}
        onRename={() => setRenaming(true)}
        onDelete={() => setConfirmDelete(true)}
        sessionSlot={setSessionSlot}
      />
      <Switch>
        <Match when={access.error}>
          <p class="banner error" role="alert">
            {errorText(access.error, 'E_WORKSPACE_ACCESS_FAILED')}
          </p>
        </Match>
        <Match when={access() === 'prompt'}>
          <div class="banner" role="region" aria-label={t('workspace.restore')}>
            <div>
              <strong>{t('workspace.restoreTitle', { folder: folderName() })}</strong>
              <p>{t('workspace.restoreBody')}</p>
            </div>
            <button type="button" class="button primary" onClick={restore}>
              {t('workspace.restore')}
            </button>
          </div>
        </Match>
        <Match when={access() === 'denied'}>
          <div class="banner warning" role="region" aria-label={t('workspace.restore')}>
            <div>
              <strong>{t('workspace.deniedTitle', { folder: folderName() })}</strong>
              <p>{t('workspace.deniedBody')}</p>
            </div>
            <div class="banner-actions">
              <button type="button" class="button" onClick={chooseAgain}>
                {t('workspace.chooseAgain')}
              </button>
              <button type="button" class="button primary" onClick={restore}>
                {t('workspace.restore')}
              </button>
            </div>
          </div>
        </Match>
        <Match when={access() === 'missing'}>
          <div class="banner warning" role="region" aria-label={t('workspace.chooseAgain')}>
            <div>
              <strong>{t('workspace.missingTitle')}</strong>
              <p>{t('workspace.missingBody')}</p>
            </div>
            <Show when={props.workspace.kind === 'folder'}>
              <button type="button" class="button primary" onClick={chooseAgain}>
                {t('workspace.chooseAgain')}
              </button>
            </Show>
          </div>
        </Match>
      </Switch>
      <div class="workspace-body">
        <ChatSlot state={s} workspace={props.workspace} fs={fs()} headerSlot={sessionSlot} changesSlot={changesSlot} />
        {/* Hidden, not unmounted, when collapsed: the tree keeps its open folders and scroll position. */}
        <SidePanel
          t={t}
          hidden={!layout.filesOpen()}
          tabs={[
            { id: 'files', label: t('layout.filesTab'), content: filesTab },
            {
              id: 'changes',
              label: t('changes.tab'),
              content: () => <div class="changes-slot" ref={setChangesSlot} />,
            },
          ]}
        />
      </div>
      <Show when={renaming()}>
        <RenameDialog state={s} workspace={props.workspace} onClose={() => setRenaming(false)} />
      </Show>
      <Show when={confirmDelete()}>
        <ConfirmDialog
          title={t('common.delete')}
          body={t('workspace.deleteConfirm', {
            name: props.workspace.name,
            extra: props.workspace.kind === 'opfs' ? t('workspace.deletePrivateNote') : t('workspace.deleteFolderNote'),
          })}
          confirmLabel={t('common.delete')}
          cancelLabel={t('common.cancel')}
          danger
          onConfirm={() => void s.attempt(() => s.remove(props.workspace.id))}
          onClose={() => setConfirmDelete(false)}
        />
      </Show>
    </div>
  );
}
