import { createSignal, createUniqueId } from 'solid-js';
import { normalizeWorkspacePath, type WorkspaceFs } from '../../core/contracts';
import type { AppState } from '../state/app-state';
import { Dialog } from './dialog';
import { errorText } from './error-text';

// Creates a text file through WorkspaceFs (the same port the agent's tools use), so the path policy applies.
export function NewFileDialog(props: {
  state: AppState;
  fs: WorkspaceFs;
  dir: string;
  onClose: () => void;
  onCreated: (path: string) => void;
}) {
  const t = props.state.t;
  const [path, setPath] = createSignal(props.dir ? `${props.dir}/` : '');
  const [content, setContent] = createSignal('');
  const [error, setError] = createSignal('');
  const ids = { path: createUniqueId(), hint: createUniqueId(), content: createUniqueId() };

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    try {
      const typed = path().trim();
      // The path policy tolerates one trailing '/', so "notes/" would silently become a file named "notes".
      if (typed.endsWith('/')) {
        setError(
          `E_PATH_INVALID: The path “${typed}” ends with “/”, so it names no file. Type the file’s name after it, such as ${typed}notes.md.`,
        );
        return;
      }
      const target = normalizeWorkspacePath(typed).path;
      if (await props.fs.stat(target)) {
        setError(`E_FS_EXISTS: ${t('files.exists', { path: target })}`);
        return;
      }
      await props.fs.writeText(target, content());
      props.onClose();
      props.onCreated(target);
    } catch (e) {
      setError(errorText(e, 'E_FS_IO'));
    }
  }

  return (
    <Dialog title={t('files.newFile')} onClose={props.onClose} closeLabel={t('common.close')} wide>
      <form class="form" onSubmit={submit}>
        <div class="field">
          <label for={ids.path}>{t('files.path')}</label>
          <input
            id={ids.path}
            type="text"
            required
            autocomplete="off"
            spellcheck={false}
            value={path()}
            onInput={(e) => setPath(e.currentTarget.value)}
            aria-describedby={ids.hint}
            aria-invalid={error() ? true : undefined}
          />
          <p id={ids.hint} class="field-hint">
            {t('files.pathHint')}
          </p>
        </div>
        <div class="field">
          <label for={ids.content}>{t('files.content')}</label>
          <textarea
            id={ids.content}
            rows={10}
            spellcheck={false}
            class="mono"
            value={content()}
            onInput={(e) => setContent(e.currentTarget.value)}
          />
        </div>
        <p class="field-error" role="alert">
          {error()}
        </p>
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose()}>
            {t('common.cancel')}
          </button>
          <button type="submit" class="button primary">
            {t('files.create')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
