import { createSignal, createUniqueId, onCleanup, Show } from 'solid-js';
import { createFsaWorkspaceFs, type WorkspaceAccess } from '../../core/contracts';
import {
  canPickFolders,
  importZipAsWorkspace,
  openWorkspaceFs,
  pickFolder,
  workspaceNameFromFolder,
  type WorkspaceKind,
  type ZipProgress,
} from '../../core/page';
import type { AppState } from '../state/app-state';
import { Dialog } from './dialog';
import { errorText } from './error-text';
import { filesText, type FilesKey } from './files-strings';
import { progressText, ZipProgressBar } from './zip-progress';
import { suggestWorkspaceName } from './workspace-name';

/** What the dialog creates: a granted folder, an empty private workspace, or a private one from a .zip. */
type Source = WorkspaceKind | 'zip';

export function NewWorkspaceDialog(props: {
  state: AppState;
  initialKind: WorkspaceKind;
  /** The person already chose where the files live (the welcome screen's cards): the dialog does not ask again. */
  kindChosen?: boolean;
  onClose: () => void;
}) {
  const t = props.state.t;
  const pickerAvailable = canPickFolders();
  const ft = (key: FilesKey, params?: Record<string, string | number>) => filesText(props.state.locale(), key, params);
  const [kind, setKind] = createSignal<Source>(pickerAvailable ? props.initialKind : 'opfs');
  const [archive, setArchive] = createSignal<File | null>(null);
  const [progress, setProgress] = createSignal<ZipProgress | null>(null);
  let importing: AbortController | undefined;
  onCleanup(() => importing?.abort());
  const [access, setAccess] = createSignal<WorkspaceAccess>('read-write');
  const suggested = suggestWorkspaceName(
    props.state.workspaces().map((w) => w.name),
    (n) => t('newWorkspace.suggestedName', { n }),
  );
  // A private workspace has no folder name to fall back on: its name field starts with a suggestion, not a demand.
  const [name, setName] = createSignal(kind() === 'opfs' ? suggested : '');
  const [askKind, setAskKind] = createSignal(!(props.kindChosen && pickerAvailable));
  const chooseKind = (next: Source) => {
    if (next === 'opfs' && !name().trim()) setName(suggested);
    if (next !== 'opfs' && name() === suggested) setName('');
    setKind(next);
  };
  const [error, setError] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const ids = {
    name: createUniqueId(),
    hint: createUniqueId(),
    error: createUniqueId(),
    file: createUniqueId(),
    fileHint: createUniqueId(),
  };

  /** Unpacks into a new private workspace; a refusal leaves none behind (web/core/archive). */
  async function importArchive() {
    const file = archive();
    if (!file) throw Object.assign(new Error(ft('import.noFile')), { code: 'E_ARCHIVE_MISSING' });
    importing = new AbortController();
    setProgress(null);
    try {
      const record = await importZipAsWorkspace(props.state.db, {
        name: name().trim() || file.name.replace(/\.zip$/i, ''),
        archive: file,
        openFs: (w) =>
          openWorkspaceFs(w, (handle, mode) => createFsaWorkspaceFs(handle, { access: mode, rootName: w.name })),
        signal: importing.signal,
        onProgress: setProgress,
      });
      await props.state.refresh();
      props.state.select(record.id);
    } finally {
      importing = undefined;
    }
  }

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
      } else if (kind() === 'zip') {
        await importArchive();
      } else {
        await props.state.createPrivate(name().trim() || suggested);
      }
      props.onClose();
    } catch (e) {
      setProgress(null);
      setError(errorText(e, 'E_WORKSPACE_CREATE_FAILED'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog title={t('newWorkspace.title')} onClose={props.onClose} closeLabel={t('common.close')}>
      <form class="form" onSubmit={submit}>
        <Show when={!askKind()}>
          <p class="kind-chosen">
            {t('newWorkspace.kindChosen', {
              kind: kind() === 'folder' ? t('newWorkspace.kindFolder') : t('newWorkspace.kindPrivate'),
            })}{' '}
            <button type="button" class="link-button" onClick={() => setAskKind(true)}>
              {t('newWorkspace.changeKind')}
            </button>
          </p>
        </Show>
        <Show when={askKind()}>
          <fieldset class="choice-group">
            <legend>{t('newWorkspace.kind')}</legend>
            <label class="choice" classList={{ disabled: !pickerAvailable }}>
              <input
                type="radio"
                name="kind"
                value="folder"
                checked={kind() === 'folder'}
                disabled={!pickerAvailable}
                onChange={() => chooseKind('folder')}
              />
              <span>{t('newWorkspace.kindFolder')}</span>
            </label>
            <label class="choice">
              <input
                type="radio"
                name="kind"
                value="opfs"
                checked={kind() === 'opfs'}
                onChange={() => chooseKind('opfs')}
              />
              <span>{t('newWorkspace.kindPrivate')}</span>
            </label>
            <label class="choice">
              <input
                type="radio"
                name="kind"
                value="zip"
                checked={kind() === 'zip'}
                onChange={() => chooseKind('zip')}
              />
              <span>{ft('import.kind')}</span>
            </label>
            <Show when={!pickerAvailable}>
              <p class="field-hint">{t('welcome.noPicker')}</p>
            </Show>
          </fieldset>
        </Show>

        <Show when={kind() === 'folder'}>
          <fieldset class="choice-group">
            <legend>{t('newWorkspace.access')}</legend>
            <label class="choice">
              <input
                type="radio"
                name="access"
                value="read-write"
                checked={access() === 'read-write'}
                onChange={() => setAccess('read-write')}
              />
              <span>{t('newWorkspace.accessReadWrite')}</span>
            </label>
            <label class="choice">
              <input
                type="radio"
                name="access"
                value="read"
                checked={access() === 'read'}
                onChange={() => setAccess('read')}
              />
              <span>{t('newWorkspace.accessRead')}</span>
            </label>
          </fieldset>
        </Show>

        <Show when={kind() === 'zip'}>
          <div class="field">
            <span id={ids.file} class="field-label">
              {ft('import.file')}
            </span>
            {/* The native control's "Choose File" follows the browser's language, not the app's: a labelled button. */}
            <div class="file-pick">
              <label class="button small">
                {ft('import.choose')}
                <input
                  type="file"
                  class="visually-hidden"
                  accept=".zip,application/zip"
                  disabled={busy()}
                  aria-labelledby={ids.file}
                  aria-describedby={ids.fileHint}
                  onChange={(e) => setArchive(e.currentTarget.files?.[0] ?? null)}
                />
              </label>
              <span class="meta-text">{archive()?.name ?? ft('import.noneChosen')}</span>
            </div>
            <p id={ids.fileHint} class="field-hint">
              {ft('import.hint')}
            </p>
          </div>
        </Show>

        <div class="field">
          <label for={ids.name}>{t('newWorkspace.name')}</label>
          <input
            id={ids.name}
            type="text"
            autocomplete="off"
            maxLength={120}
            placeholder={t('newWorkspace.namePlaceholder')}
            disabled={busy()}
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-describedby={`${ids.hint} ${ids.error}`}
            aria-invalid={error() ? true : undefined}
          />
          <p id={ids.hint} class="field-hint">
            {kind() === 'folder'
              ? t('newWorkspace.nameFromFolder')
              : kind() === 'zip'
                ? ft('import.nameHint')
                : t('newWorkspace.nameSuggested')}
          </p>
          <p id={ids.error} class="field-error" role="alert">
            {error()}
          </p>
        </div>

        <Show when={kind() === 'zip' && busy()}>
          <ZipProgressBar
            label={ft('import.progressLabel')}
            progress={progress()}
            text={
              progress()
                ? progressText((p) => ft('import.progress', p), progress() as ZipProgress, props.state.locale())
                : ''
            }
          />
        </Show>

        <div class="form-actions">
          <button type="button" class="button" onClick={() => (importing ? importing.abort() : props.onClose())}>
            {t('common.cancel')}
          </button>
          <button type="submit" class="button primary" disabled={busy()}>
            {kind() === 'folder'
              ? t('newWorkspace.chooseFolder')
              : kind() === 'zip'
                ? ft('import.start')
                : t('newWorkspace.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
