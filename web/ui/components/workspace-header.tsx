// The workspace's top bar: one row above the conversation. The workspace's name with its details behind a button
// (kind, access, created, ID, rename, delete), a slot where the chat view puts the open session's title and menu,
// and the files panel toggle. Everything else the old header showed permanently now waits behind those buttons.
import { createSignal } from 'solid-js';
import type { WorkspaceRecord } from '../../core/page';
import { layoutState } from '../state/layout-state';
import { toggleFilesPanel } from '../state/app-actions';
import type { AppState } from '../state/app-state';
import { ChevronDownIcon, PanelRightIcon } from './layout-icons';
import { PopoverButton } from './menu';
import { SidebarToggle } from './sidebar';

export function WorkspaceHeader(props: {
  state: AppState;
  workspace: WorkspaceRecord;
  onRename: () => void;
  onDelete: () => void;
  sessionSlot: (el: HTMLElement) => void;
}) {
  const t = props.state.t;
  const layout = layoutState();
  return (
    <header class="topbar">
      <SidebarToggle t={t} />
      <div class="topbar-workspace">
        <h1 class="topbar-title" title={props.workspace.name}>
          {props.workspace.name}
        </h1>
        <PopoverButton
          label={t('layout.workspaceDetails')}
          class="icon-button small"
          panel={(close) => <WorkspaceDetails {...props} close={close} />}
        >
          <ChevronDownIcon />
        </PopoverButton>
      </div>
      <div class="topbar-session" ref={(el) => props.sessionSlot(el)} />
      <button
        type="button"
        class="icon-button"
        aria-label={t('layout.toggleFiles')}
        title={t('layout.toggleFiles')}
        aria-pressed={layout.filesOpen()}
        aria-controls="side-panel"
        onClick={() => toggleFilesPanel()}
      >
        <PanelRightIcon />
      </button>
    </header>
  );
}

function WorkspaceDetails(props: {
  state: AppState;
  workspace: WorkspaceRecord;
  onRename: () => void;
  onDelete: () => void;
  close: () => void;
}) {
  const t = props.state.t;
  const [copied, setCopied] = createSignal(false);
  const created = () =>
    new Date(props.workspace.createdAt).toLocaleDateString(props.state.locale() === 'zh' ? 'zh-CN' : 'en-US', {
      dateStyle: 'medium',
    });
  async function copyId() {
    await props.state.attempt(() => navigator.clipboard.writeText(props.workspace.id));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <div class="workspace-details">
      <p class="workspace-details-name">{props.workspace.name}</p>
      <div class="meta">
        <span class="badge">
          {props.workspace.kind === 'opfs' ? t('workspace.kindPrivate') : t('workspace.kindFolder')}
        </span>
        <span class="badge" classList={{ accent: props.workspace.access === 'read-write' }}>
          {props.workspace.access === 'read-write' ? t('workspace.accessReadWrite') : t('workspace.accessRead')}
        </span>
        <span class="meta-text">{t('workspace.created', { date: created() })}</span>
      </div>
      <dl class="id-row">
        <dt>{t('workspace.id')}</dt>
        <dd>
          <code data-testid="workspace-id">{props.workspace.id}</code>
          <button type="button" class="link-button" onClick={copyId}>
            {copied() ? t('common.copied') : t('common.copy')}
          </button>
        </dd>
      </dl>
      <div class="workspace-actions">
        <button type="button" class="button small" onClick={() => (props.close(), props.onRename())}>
          {t('common.rename')}
        </button>
        <button type="button" class="button small danger-outline" onClick={() => (props.close(), props.onDelete())}>
          {t('common.delete')}
        </button>
      </div>
    </div>
  );
}
