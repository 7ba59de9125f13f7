import { createSignal, createUniqueId, Show } from 'solid-js';
import { canPickFolders, pickFolder, workspaceNameFromFolder, type WorkspaceAccess, type WorkspaceKind } from '../../core';
import type { AppState } from '../state/app-state';
import { Dialog } from './dialog';
import { errorText } from './error-text';

export function NewWorkspaceDialog(props: { state: AppState; initialKind: WorkspaceKind; onClose: () => void }) {
  const t = props.state.t;
  const pickerAvailable = canPickFolders();
  const [kind, setKind] = createSignal<WorkspaceKind>(pickerAvailable ? props.initialKind : 'opfs');
  const [access, setAccess] = createSignal<WorkspaceAccess>('read-write');
  const [name, setName] = createSignal('');
  const [error, setError] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const ids = { name: createUniqueId(), hint: createUniqueId(), error: createUniqueId() };

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    setBusy(true);
    try {
      if (kind() === 'folder') {
        // The picker must open inside this click: nothing async may run before it.
        const handle = await pickFolder(access());
        if (!handle) return;
        await props.state.createFromFolder(name().trim() || workspaceNameFromFolder(handle.name), handle, access());
      } else {
        await props.state.createPrivate(name());
      }
      props.onClose();
    } catch (e) {
      setError(errorText(e, 'E_WORKSPACE_CREATE_FAILED'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('newWorkspace.title')} onClose={props.onClose} closeLabel={t('common.close')}>
      <form class="form" onSubmit={submit}>
        <fieldset class="choice-group">
          <legend>{t('newWorkspace.kind')}</legend>
          <label class="choice" classList={{ disabled: !pickerAvailable }}>
            <input type="radio" name="kind" value="folder" checked={kind() === 'folder'} disabled={!pickerAvailable} onChange={() => setKind('folder')} />
            <span>{t('newWorkspace.kindFolder')}</span>
          </label>
          <label class="choice">
            <input type="radio" name="kind" value="opfs" checked={kind() === 'opfs'} onChange={() => setKind('opfs')} />
            <span>{t('newWorkspace.kindPrivate')}</span>
          </label>
          <Show when={!pickerAvailable}>
            <p class="field-hint">{t('welcome.noPicker')}</p>
          </Show>
        </fieldset>

        <Show when={kind() === 'folder'}>
          <fieldset class="choice-group">
            <legend>{t('newWorkspace.access')}</legend>
            <label class="choice">
              <input type="radio" name="access" value="read-write" checked={access() === 'read-write'} onChange={() => setAccess('read-write')} />
              <span>{t('newWorkspace.accessReadWrite')}</span>
            </label>
            <label class="choice">
              <input type="radio" name="access" value="read" checked={access() === 'read'} onChange={() => setAccess('read')} />
              <span>{t('newWorkspace.accessRead')}</span>
            </label>
          </fieldset>
        </Show>

        <div class="field">
          <label for={ids.name}>{t('newWorkspace.name')}</label>
          <input
            id={ids.name}
            type="text"
            autocomplete="off"
            maxLength={120}
            placeholder={t('newWorkspace.namePlaceholder')}
            required={kind() === 'opfs'}
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-describedby={`${ids.hint} ${ids.error}`}
            aria-invalid={error() ? true : undefined}
          />
          <p id={ids.hint} class="field-hint">
            {kind() === 'folder' ? t('newWorkspace.nameFromFolder') : ''}
          </p>
          <p id={ids.error} class="field-error" role="alert">
            {error()}
          </p>
        </div>

        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose()}>
            {t('common.cancel')}
          </button>
          <button type="submit" class="button primary" disabled={busy()}>
            {kind() === 'folder' ? t('newWorkspace.chooseFolder') : t('newWorkspace.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
