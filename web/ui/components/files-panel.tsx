import { createResource, createSignal, For, Match, Show, Switch } from 'solid-js';
import type { DirEntry, WorkspaceFs } from '../../core';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { messageOf } from '../state/errors';
import { FilePreviewDialog } from './file-preview-dialog';
import { FileIcon, FolderIcon, PlusIcon, UpIcon } from './icons';
import { NewFileDialog } from './new-file-dialog';

const MAX_LISTED = 5000;

export function FilesPanel(props: { state: AppState; fs: WorkspaceFs; showHidden: boolean }) {
  const t = props.state.t;
  const [dir, setDir] = createSignal('');
  const [epoch, setEpoch] = createSignal(0);
  const [openFile, setOpenFile] = createSignal<string | null>(null);
  const [creating, setCreating] = createSignal(false);
  const [listing] = createResource(
    () => ({ fs: props.fs, dir: dir(), epoch: epoch() }),
    ({ fs, dir }) => fs.list(dir, { maxEntries: MAX_LISTED }),
  );
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
            {messageOf(listing.error)}
          </p>
        </Match>
        <Match when={listing.loading && !listing.latest}>
          <p class="empty-hint">{t('files.loading')}</p>
        </Match>
        <Match when={listing()}>
          {(entries) => (
            <Show when={visible(entries()).length > 0} fallback={<p class="empty-hint pad">{writable() ? t('files.emptyWritable') : t('files.empty')}</p>}>
              <ul class="file-list" role="list" aria-label={t('files.title')}>
                <For each={visible(entries())}>
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
          )}
        </Match>
      </Switch>
      <Show when={openFile()}>{(path) => <FilePreviewDialog state={props.state} fs={props.fs} path={path()} onClose={() => setOpenFile(null)} />}</Show>
      <Show when={creating()}>
        <NewFileDialog
          state={props.state}
          fs={props.fs}
          dir={dir()}
          onClose={() => setCreating(false)}
          onCreated={(path) => {
            setEpoch((n) => n + 1);
            setOpenFile(path);
          }}
        />
      </Show>
    </section>
  );
}

