import { createResource, Match, Switch } from 'solid-js';
import type { WorkspaceFs } from '../../core';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { codeOf, messageOf } from '../state/errors';
import { Dialog } from './dialog';

const PREVIEW_MAX_BYTES = 1024 * 1024;

type Preview = { kind: 'text'; text: string } | { kind: 'binary'; size: number };

export function FilePreviewDialog(props: { state: AppState; fs: WorkspaceFs; path: string; onClose: () => void }) {
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
  return (
    <Dialog title={props.path} onClose={props.onClose} closeLabel={t('common.close')} wide>
      <Switch>
        <Match when={preview.error}>
          <p class="panel-error" role="alert">
            {messageOf(preview.error)}
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
