import { createSignal } from 'solid-js';
import type { WorkspaceRecord } from '../../core';
import type { AppState } from '../state/app-state';

export function WorkspaceHeader(props: { state: AppState; workspace: WorkspaceRecord; onRename: () => void; onDelete: () => void }) {
  const t = props.state.t;
  const [copied, setCopied] = createSignal(false);
  const created = () => new Date(props.workspace.createdAt).toLocaleDateString(props.state.locale() === 'zh' ? 'zh-CN' : 'en-US', { dateStyle: 'medium' });
  async function copyId() {
    await props.state.attempt(() => navigator.clipboard.writeText(props.workspace.id));
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <header class="workspace-header">
      <div class="workspace-title">
        <h1>{props.workspace.name}</h1>
        <div class="meta">
          <span class="badge">{props.workspace.kind === 'opfs' ? t('workspace.kindPrivate') : t('workspace.kindFolder')}</span>
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
      </div>
      <div class="workspace-actions">
        <button type="button" class="button" onClick={() => props.onRename()}>
          {t('common.rename')}
        </button>
        <button type="button" class="button danger-outline" onClick={() => props.onDelete()}>
          {t('common.delete')}
        </button>
      </div>
    </header>
  );
}
