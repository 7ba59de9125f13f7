import { createEffect, createMemo, createSignal, lazy, on, onCleanup, Show, Suspense } from 'solid-js';
import type { WorkspaceFs } from '../../core/contracts';
import type { AppState } from '../state/app-state';
import { codeOf } from '../state/errors';
import { errorText } from './error-text';
import { FilePreviewDialog } from './file-preview-dialog';
import { FileTree } from './file-tree';
import { reachableOpenFolders, visibleRows, type FolderState, type TreeRow } from './file-tree-model';
import { DownloadIcon, RefreshIcon } from './files-icons';
import { filesText } from './files-strings';
import './files.css';
import { PlusIcon } from './icons';
import { NewFileDialog } from './new-file-dialog';

const MAX_LISTED = 5000;

// Opened by a click: it brings zip.js, which the first screen does not need (issue 30).
const ZipDownloadDialog = lazy(() => import('./zip-download-dialog').then((m) => ({ default: m.ZipDownloadDialog })));

/** Open folders per workspace id for this page's life, so switching workspaces or re-mounting keeps them. */
const openFolders = new Map<string, ReadonlySet<string>>();

/** Codes after which the listing cannot work until access is back: the workspace view checks access again. */
const ACCESS_LOST = new Set(['E_FS_PERMISSION']);

/**
 * The workspace's files as a tree. It re-reads the root and every open folder (keeping them open, and the scroll
 * position) when the agent wrote files in this workspace (the app state's files epoch, bumped from the core's
 * events), when Refresh is pressed, and when the person comes back to the window (other programs change files too).
 *
 * `onAccessLost` runs when a listing fails in a way only access can explain (permission withdrawn, the workspace's
 * folder itself gone), so the workspace view can check again and offer “Restore access” or “Choose folder again”.
 */
export function FilesPanel(props: {
  state: AppState;
  fs: WorkspaceFs;
  showHidden: boolean;
  onAccessLost?: () => void;
}) {
  const t = props.state.t;
  const ft = (key: Parameters<typeof filesText>[1], params?: Record<string, string | number>) =>
    filesText(props.state.locale(), key, params);
  const [folders, setFolders] = createSignal<ReadonlyMap<string, FolderState>>(new Map());
  const [expanded, setExpanded] = createSignal<ReadonlySet<string>>(new Set());
  const [openFile, setOpenFile] = createSignal<string | null>(null);
  const [creating, setCreating] = createSignal(false);
  const [zipFolder, setZipFolder] = createSignal<string | null>(null);
  const [selectedFolder, setSelectedFolder] = createSignal('');
  // Newest read per folder: an older answer that arrives late must not replace a newer one.
  const generation = new Map<string, number>();

  async function read(paths: string[]): Promise<void> {
    const fs = props.fs;
    const tickets = paths.map((p) => {
      const n = (generation.get(p) ?? 0) + 1;
      generation.set(p, n);
      return n;
    });
    // One more than shown: a folder that has more is listed in part, with a note, rather than not at all.
    const results = await Promise.all(
      paths.map((dir) =>
        fs.list(dir, { maxEntries: MAX_LISTED + 1, truncate: true }).then(
          (entries): FolderState => ({
            status: 'ready',
            entries: entries.slice(0, MAX_LISTED),
            partial: entries.length > MAX_LISTED,
          }),
          (error: unknown): FolderState => ({ status: 'error', error }),
        ),
      ),
    );
    if (fs !== props.fs) return;
    const next = new Map(folders());
    const vanished: string[] = [];
    results.forEach((state, i) => {
      const path = paths[i] as string;
      if (generation.get(path) !== tickets[i]) return;
      // A subfolder removed meanwhile just closes; its parent's new listing no longer shows it.
      if (path !== '' && state.status === 'error' && codeOf(state.error) === 'E_FS_NOT_FOUND') {
        next.delete(path);
        vanished.push(path);
      } else next.set(path, state);
    });
    setFolders(next);
    setExpanded(reachableOpenFolders(next, expanded()));
    // Its parent was not read with it (the folder was just opened): read the parent so the row goes too.
    const parents = [...new Set(vanished.map((p) => p.slice(0, Math.max(0, p.lastIndexOf('/')))))].filter(
      (p) => !paths.includes(p),
    );
    if (parents.length > 0) void read(parents);
  }

  const reload = () => void read(['', ...expanded()]);
  const toggle = (path: string) => {
    const open = new Set(expanded());
    if (open.delete(path)) {
      setExpanded(open);
      return;
    }
    open.add(path);
    setExpanded(open);
    if (folders().get(path)?.status !== 'ready') setFolders(new Map(folders()).set(path, { status: 'loading' }));
    void read([path]);
  };

  // The same workspace opened again (a new WorkspaceFs after access came back, or the panel shown again): its
  // folders stay open. Another workspace: the folders that were open there, or just its root.
  let shownWorkspace: string | undefined;
  createEffect(
    on(
      () => props.fs,
      () => {
        const id = props.state.selected()?.id ?? props.fs.rootName;
        generation.clear();
        if (id !== shownWorkspace) {
          shownWorkspace = id;
          setExpanded(new Set(openFolders.get(id) ?? []));
          setFolders(new Map());
          setSelectedFolder('');
        }
        void read(['', ...expanded()]);
      },
    ),
  );
  createEffect(() => {
    if (shownWorkspace !== undefined) openFolders.set(shownWorkspace, expanded());
  });
  // The agent (a tool or a plugin) wrote files here: read what is shown again, no polling.
  createEffect(
    on(
      () => props.state.filesEpoch(),
      (epoch) => {
        if (epoch.workspaceId && epoch.workspaceId === props.state.selected()?.id) reload();
      },
      { defer: true },
    ),
  );
  // Files change outside the app (another program, another tab): read again when the person comes back.
  const onVisible = () => {
    if (document.visibilityState === 'visible') reload();
  };
  window.addEventListener('focus', reload);
  document.addEventListener('visibilitychange', onVisible);
  onCleanup(() => {
    window.removeEventListener('focus', reload);
    document.removeEventListener('visibilitychange', onVisible);
  });

  const root = () => folders().get('');
  const rootError = () => {
    const r = root();
    return r?.status === 'error' ? r.error : undefined;
  };
  createEffect(() => {
    const error = rootError();
    if (!error) return;
    const code = codeOf(error);
    if ((code && ACCESS_LOST.has(code)) || code === 'E_FS_NOT_FOUND') props.onAccessLost?.();
  });
  const rows = createMemo(() => visibleRows(folders(), expanded(), props.showHidden));
  const writable = () => props.fs.access === 'read-write';
  const newFileDir = () => selectedFolder();
  const onSelect = (row: TreeRow) => setSelectedFolder(row.directory ? row.path : row.parent);

  return (
    <section class="files-panel panel" aria-labelledby="files-title">
      <header class="panel-header files-header">
        <h2 id="files-title">{t('files.title')}</h2>
        <div class="files-actions">
          <Show when={!writable()}>
            <span class="badge">{t('files.readOnly')}</span>
          </Show>
          <button
            type="button"
            class="icon-button"
            aria-label={ft('tree.refresh')}
            title={ft('tree.refresh')}
            onClick={reload}
          >
            <RefreshIcon />
          </button>
          <button
            type="button"
            class="icon-button"
            aria-label={ft('tree.download')}
            title={ft('tree.download')}
            onClick={() => setZipFolder(selectedFolder())}
          >
            <DownloadIcon />
          </button>
          <Show when={writable()}>
            <button
              type="button"
              class="icon-button"
              aria-label={t('files.newFile')}
              title={t('files.newFile')}
              onClick={() => setCreating(true)}
            >
              <PlusIcon />
            </button>
          </Show>
        </div>
      </header>
      <Show
        when={rootError()}
        fallback={
          <Show when={root()?.status === 'ready'} fallback={<p class="empty-hint">{t('files.loading')}</p>}>
            <Show when={root()?.status === 'ready' && (root() as { partial: boolean }).partial}>
              <p class="field-hint pad" role="status" data-testid="files-partial">
                {t('files.truncated', { count: MAX_LISTED })}
              </p>
            </Show>
            <Show
              when={rows().length > 0}
              fallback={<p class="empty-hint pad">{writable() ? t('files.emptyWritable') : t('files.empty')}</p>}
            >
              <FileTree
                label={t('files.title')}
                locale={props.state.locale()}
                rows={rows()}
                folders={folders()}
                maxListed={MAX_LISTED}
                onToggle={toggle}
                onOpen={setOpenFile}
                onFolderMenu={setZipFolder}
                onSelect={onSelect}
              />
            </Show>
          </Show>
        }
      >
        {(error) => (
          <p class="panel-error" role="alert">
            {errorText(error(), 'E_FS_IO')}
          </p>
        )}
      </Show>
      <Show when={openFile()}>
        {(path) => (
          <FilePreviewDialog
            state={props.state}
            fs={props.fs}
            path={path()}
            onClose={() => setOpenFile(null)}
            onMissing={reload}
          />
        )}
      </Show>
      <Show when={zipFolder() !== null}>
        <Suspense>
          <ZipDownloadDialog
            state={props.state}
            fs={props.fs}
            folder={zipFolder() as string}
            onClose={() => setZipFolder(null)}
          />
        </Suspense>
      </Show>
      <Show when={creating()}>
        <NewFileDialog
          state={props.state}
          fs={props.fs}
          dir={newFileDir()}
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
