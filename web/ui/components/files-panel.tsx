import { createEffect, createResource, createSignal, For, Match, onCleanup, Show, Switch } from 'solid-js';
import type { DirEntry, WorkspaceFs } from '../../core';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { codeOf } from '../state/errors';
import { errorText } from './error-text';
import { FilePreviewDialog } from './file-preview-dialog';
import { FileIcon, FolderIcon, PlusIcon, UpIcon } from './icons';
import { NewFileDialog } from './new-file-dialog';

const MAX_LISTED = 5000;

/** Codes after which the listing cannot work until access is back: the workspace view checks access again. */
const ACCESS_LOST = new Set(['E_FS_PERMISSION']);

/**
 * `onAccessLost` runs when a listing fails in a way only access can explain (permission withdrawn, the workspace's
 * folder itself gone), so the workspace view can check again and offer “Restore access” or “Choose folder again”.
 */
export function FilesPanel(props: { state: AppState; fs: WorkspaceFs; showHidden: boolean; onAccessLost?: () => void }) {
  const t = props.state.t;
  const [dir, setDir] = createSignal('');
  const [epoch, setEpoch] = createSignal(0);
  const [openFile, setOpenFile] = createSignal<string | null>(null);
  const [creating, setCreating] = createSignal(false);
  const [listing] = createResource(
    () => ({ fs: props.fs, dir: dir(), epoch: epoch() }),
    // One more than shown: a folder that has more is listed in part, with a note, rather than not at all.
    async ({ fs, dir }) => {
      const entries = await fs.list(dir, { maxEntries: MAX_LISTED + 1, truncate: true });
      return { entries: entries.slice(0, MAX_LISTED), partial: entries.length > MAX_LISTED };
    },
  );
  const reload = () => setEpoch((n) => n + 1);
  // Files change outside the app (another program, another tab, the agent): read the folder again when the person
  // comes back to this window instead of showing a stale list whose entries fail to open.
  const onVisible = () => {
    if (document.visibilityState === 'visible') reload();
  };
  window.addEventListener('focus', reload);
  document.addEventListener('visibilitychange', onVisible);
  onCleanup(() => {
    window.removeEventListener('focus', reload);
    document.removeEventListener('visibilitychange', onVisible);
  });
  createEffect(() => {
    const error = listing.error as unknown;
    if (!error) return;
    const code = codeOf(error);
    if ((code && ACCESS_LOST.has(code)) || (code === 'E_FS_NOT_FOUND' && dir() === '')) props.onAccessLost?.();
  });
  const visible = (entries: DirEntry[]) => {
    const shown = props.showHidden ? entries : entries.filter((e) => !e.name.startsWith('.'));
    return [...shown].sort((a, b) => Number(b.directory) - Number(a.directory));
  };
  const up = () => setDir((d) => d.split('/').slice(0, -1).join('/'));
  const writable = () => props.fs.access === 'read-write';

  return (
    <section class="files-panel panel" aria-labelledby="files-title">
      <header class="panel-header">
        <h2 id="files-title">{t('files.title')}</h2>
        <Show when={writable()} fallback={<span class="badge">{t('files.readOnly')}</span>}>
          <button type="button" class="button small" onClick={() => setCreating(true)}>
            <PlusIcon />
            {t('files.newFile')}
          </button>
        </Show>
      </header>
      <div class="breadcrumb">
        <button type="button" class="icon-button" aria-label={t('files.up')} disabled={dir() === ''} onClick={up}>
          <UpIcon />
        </button>
        <span class="breadcrumb-path" title={dir() || '/'}>
          {props.fs.rootName}
          {dir() ? ` / ${dir().split('/').join(' / ')}` : ''}
        </span>
      </div>
      <Switch>
        <Match when={listing.error}>
          <p class="panel-error" role="alert">
            {errorText(listing.error, 'E_FS_IO')}
          </p>
        </Match>
        <Match when={listing.loading && !listing.latest}>
          <p class="empty-hint">{t('files.loading')}</p>
        </Match>
        <Match when={listing()}>
          {(l) => (
            <>
            <Show when={l().partial}>
              <p class="field-hint pad" role="status" data-testid="files-partial">
                {t('files.truncated', { count: MAX_LISTED })}
              </p>
            </Show>
            <Show when={visible(l().entries).length > 0} fallback={<p class="empty-hint pad">{writable() ? t('files.emptyWritable') : t('files.empty')}</p>}>
              <ul class="file-list" role="list" aria-label={t('files.title')}>
                <For each={visible(l().entries)}>
                  {(entry) => (
                    <li>
                      <button type="button" class="file-row" onClick={() => (entry.directory ? setDir(entry.path) : setOpenFile(entry.path))}>
                        {entry.directory ? <FolderIcon /> : <FileIcon />}
                        <span class="file-name">{entry.name}</span>
                        <span class="file-meta">{entry.directory ? t('files.folder') : formatBytes(entry.size, props.state.locale())}</span>
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
            </>
          )}
        </Match>
      </Switch>
      <Show when={openFile()}>{(path) => <FilePreviewDialog state={props.state} fs={props.fs} path={path()} onClose={() => setOpenFile(null)} onMissing={reload} />}</Show>
      <Show when={creating()}>
        <NewFileDialog
          state={props.state}
          fs={props.fs}
          dir={dir()}
          onClose={() => setCreating(false)}
          onCreated={(path) => {
            reload();
            setOpenFile(path);
          }}
        />
      </Show>
    </section>
  );
}

