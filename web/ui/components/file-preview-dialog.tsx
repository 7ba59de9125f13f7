import { createEffect, createResource, Match, Switch } from 'solid-js';
import type { WorkspaceFs } from '../../core';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { codeOf } from '../state/errors';
import { Dialog } from './dialog';
import { errorText } from './error-text';

const PREVIEW_MAX_BYTES = 1024 * 1024;

type Preview = { kind: 'text'; text: string } | { kind: 'binary'; size: number };

/** `onMissing`: the file was gone when opened (removed outside the app), so the list that offered it is stale. */
export function FilePreviewDialog(props: { state: AppState; fs: WorkspaceFs; path: string; onClose: () => void; onMissing?: () => void }) {
  const t = props.state.t;
  const [preview] = createResource(
    () => props.path,
    async (path): Promise<Preview> => {
      try {
        return { kind: 'text', text: await props.fs.readText(path, { maxBytes: PREVIEW_MAX_BYTES }) };
      } catch (error) {
        if (codeOf(error) === 'E_FS_NOT_UTF8') return { kind: 'binary', size: (await props.fs.stat(path))?.size ?? 0 };
        throw error;
      }
    },
  );
  createEffect(() => {
    if (codeOf(preview.error) === 'E_FS_NOT_FOUND') props.onMissing?.();
  });
  const failure = (error: unknown): string => {
    if (codeOf(error) !== 'E_FS_TOO_LARGE') return errorText(error, 'E_FS_IO');
    // The port's message offers to raise the limit, which a person cannot do here: say what the preview can show.
    const size = (error as { data?: { size?: unknown } }).data?.size;
    const shown = typeof size === 'number' ? formatBytes(size, props.state.locale()) : '';
    const max = formatBytes(PREVIEW_MAX_BYTES, props.state.locale());
    return `E_FS_TOO_LARGE: ${shown ? t('files.tooLargeSized', { path: props.path, size: shown, max }) : t('files.tooLarge', { path: props.path, max })}`;
  };
  return (
    <Dialog title={props.path} onClose={props.onClose} closeLabel={t('common.close')} wide>
      <Switch>
        <Match when={preview.error}>
          <p class="panel-error" role="alert">
            {failure(preview.error)}
          </p>
        </Match>
        <Match when={preview()}>
          {(p) => {
            const value = p();
            return value.kind === 'text' ? (
              <pre class="file-preview" aria-label={t('files.preview')} tabIndex={0}>
                {value.text}
              </pre>
            ) : (
              <p class="empty-hint">{t('files.binary', { size: formatBytes(value.size, props.state.locale()) })}</p>
            );
          }}
        </Match>
      </Switch>
    </Dialog>
  );
}
