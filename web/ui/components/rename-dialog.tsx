import { createSignal, createUniqueId } from 'solid-js';
import type { WorkspaceRecord } from '../../core/page';
import type { AppState } from '../state/app-state';
import { Dialog } from './dialog';
import { errorText } from './error-text';

export function RenameDialog(props: { state: AppState; workspace: WorkspaceRecord; onClose: () => void }) {
  const t = props.state.t;
  const [name, setName] = createSignal(props.workspace.name);
  const [error, setError] = createSignal('');
  const id = createUniqueId();
  async function submit(event: SubmitEvent) {
    event.preventDefault();
    try {
      await props.state.rename(props.workspace.id, name());
      props.onClose();
    } catch (e) {
      setError(errorText(e, 'E_WORKSPACE_RENAME_FAILED'));
    }
  }
  return (
    <Dialog title={t('workspace.renameTitle')} onClose={props.onClose} closeLabel={t('common.close')}>
      <form class="form" onSubmit={submit}>
        <div class="field">
          <label for={id}>{t('newWorkspace.name')}</label>
          <input
            id={id}
            type="text"
            required
            maxLength={120}
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={error() ? true : undefined}
          />
          <p class="field-error" role="alert">
            {error()}
          </p>
        </div>
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose()}>
            {t('common.cancel')}
          </button>
          <button type="submit" class="button primary">
            {t('common.save')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
