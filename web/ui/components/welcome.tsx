import { Show } from 'solid-js';
import { canPickFolders, type WorkspaceKind } from '../../core/page';
import type { Translate } from '../i18n/i18n';
import { FolderIcon, LockIcon } from './icons';

export function Welcome(props: { t: Translate; onCreate: (kind: WorkspaceKind) => void }) {
  const t = props.t;
  const picker = canPickFolders();
  return (
    <section class="welcome" aria-labelledby="welcome-title">
      <img src="/logo.svg" alt="" width="64" height="64" class="welcome-logo" />
      <h1 id="welcome-title">{t('welcome.title')}</h1>
      <p class="lead">{t('welcome.body')}</p>
      <div class="welcome-choices">
        <button type="button" class="choice-card" disabled={!picker} onClick={() => props.onCreate('folder')}>
          <FolderIcon />
          <span class="choice-card-title">{t('welcome.openFolder')}</span>
          <span class="choice-card-hint">{t('welcome.openFolderHint')}</span>
        </button>
        <button type="button" class="choice-card" onClick={() => props.onCreate('opfs')}>
          <LockIcon />
          <span class="choice-card-title">{t('welcome.private')}</span>
          <span class="choice-card-hint">{t('welcome.privateHint')}</span>
        </button>
      </div>
      <Show when={!picker}>
        <p class="field-hint">{t('welcome.noPicker')}</p>
      </Show>
    </section>
  );
}
