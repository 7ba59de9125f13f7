// "Download as .zip": the whole workspace or one folder, .git left out unless ticked. With the save picker the
// zip streams into the chosen file (memory stays bounded, and Cancel discards the partial file); without it the
// zip is collected into a Blob and handed to the browser's download.
import { createSignal, createUniqueId, onCleanup, Show } from 'solid-js';
import { type WorkspaceFs } from '../../core/contracts';
import { prepareZipDownload, writeWorkspaceZip, type ZipProgress } from '../../core/page';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { codeOf } from '../state/errors';
import { Dialog } from './dialog';
import { errorText } from './error-text';
import { filesText, type FilesKey } from './files-strings';
import { progressText, ZipProgressBar } from './zip-progress';

type SaveTarget = { stream: WritableStream<Uint8Array>; name: string; finish?: () => void };
type SavePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<FileSystemFileHandle & { createWritable(): Promise<WritableStream<Uint8Array>> }>;

/** Must run first in the click: the picker needs the person's gesture. Null when the person closed the picker. */
async function saveTarget(suggestedName: string): Promise<SaveTarget | null> {
  const picker = (window as unknown as { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (picker) {
    try {
      const handle = await picker({
        suggestedName,
        types: [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }],
      });
      return { stream: await handle.createWritable(), name: handle.name };
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      throw error;
    }
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const stream = new WritableStream<Uint8Array>({
    write: (c) => void chunks.push(c.slice() as Uint8Array<ArrayBuffer>),
  });
  const finish = () => {
    const url = URL.createObjectURL(new Blob(chunks, { type: 'application/zip' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = suggestedName;
    link.click();
    // Revoking at once can cancel the download in some browsers; a minute is plenty to start it.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return { stream, name: suggestedName, finish };
}

const zipName = (fs: WorkspaceFs, folder: string) =>
  `${(folder ? folder.split('/').at(-1) : fs.rootName) || 'workspace'}.zip`;

export function ZipDownloadDialog(props: { state: AppState; fs: WorkspaceFs; folder: string; onClose: () => void }) {
  const locale = () => props.state.locale();
  const ft = (key: FilesKey, params?: Record<string, string | number>) => filesText(locale(), key, params);
  const [scope, setScope] = createSignal(props.folder);
  const [includeGit, setIncludeGit] = createSignal(false);
  const [phase, setPhase] = createSignal<'form' | 'running' | 'done' | 'failed'>('form');
  const [progress, setProgress] = createSignal<ZipProgress | null>(null);
  const [outcome, setOutcome] = createSignal('');
  const ids = { git: createUniqueId(), hint: createUniqueId() };
  let controller: AbortController | undefined;
  onCleanup(() => controller?.abort());
  prepareZipDownload();

  async function start(event: SubmitEvent) {
    event.preventDefault();
    const name = zipName(props.fs, scope());
    let target: SaveTarget | null;
    try {
      target = await saveTarget(name);
    } catch (error) {
      setOutcome(errorText(error, 'E_FS_IO'));
      setPhase('failed');
      return;
    }
    if (!target) {
      setOutcome(ft('zip.pickerCancelled'));
      return;
    }
    controller = new AbortController();
    setProgress(null);
    setPhase('running');
    try {
      const done = await writeWorkspaceZip(props.fs, target.stream, {
        folder: scope(),
        includeGit: includeGit(),
        signal: controller.signal,
        onProgress: setProgress,
      });
      target.finish?.();
      const params = {
        name: target.name,
        files: done.filesTotal.toLocaleString(locale() === 'zh' ? 'zh-CN' : 'en-US'),
        bytes: formatBytes(done.bytesTotal, locale()),
      };
      setOutcome(ft(target.finish ? 'zip.started' : 'zip.saved', params));
      setPhase('done');
    } catch (error) {
      setOutcome(codeOf(error) === 'E_ABORTED' ? ft('zip.cancelled') : errorText(error, 'E_FS_IO'));
      setPhase('failed');
    } finally {
      controller = undefined;
    }
  }

  return (
    <Dialog title={ft('zip.title')} onClose={props.onClose} closeLabel={props.state.t('common.close')}>
      <form class="form zip-dialog" onSubmit={start}>
        <Show when={props.folder !== ''}>
          <fieldset class="choice-group" disabled={phase() === 'running'}>
            <legend>{ft('zip.what')}</legend>
            <label class="choice">
              <input type="radio" name="zip-scope" checked={scope() === ''} onChange={() => setScope('')} />
              <span>{ft('zip.whole')}</span>
            </label>
            <label class="choice">
              <input
                type="radio"
                name="zip-scope"
                checked={scope() === props.folder}
                onChange={() => setScope(props.folder)}
              />
              <span>{ft('zip.folder', { folder: props.folder })}</span>
            </label>
          </fieldset>
        </Show>
        <div class="zip-option">
          <label class="choice">
            <input
              id={ids.git}
              type="checkbox"
              checked={includeGit()}
              disabled={phase() === 'running'}
              aria-describedby={ids.hint}
              onChange={(e) => setIncludeGit(e.currentTarget.checked)}
            />
            <span>{ft('zip.includeGit')}</span>
          </label>
          <p id={ids.hint} class="field-hint">
            {ft('zip.includeHint')}
          </p>
        </div>
        <Show when={phase() === 'running' || phase() === 'done'}>
          <ZipProgressBar
            label={ft('zip.progressLabel')}
            progress={progress()}
            text={
              progress()
                ? progressText((p) => ft('zip.progress', p), progress() as ZipProgress, locale())
                : ft('zip.listing')
            }
          />
        </Show>
        <p
          class="field-hint"
          role={phase() === 'failed' ? 'alert' : 'status'}
          classList={{ 'field-error': phase() === 'failed' }}
        >
          {outcome()}
        </p>
        <div class="form-actions">
          <Show
            when={phase() === 'running'}
            fallback={
              <>
                <button type="button" class="button" onClick={() => props.onClose()}>
                  {props.state.t('common.close')}
                </button>
                <button type="submit" class="button primary">
                  {ft('zip.start')}
                </button>
              </>
            }
          >
            <button type="button" class="button" onClick={() => controller?.abort()}>
              {props.state.t('common.cancel')}
            </button>
          </Show>
        </div>
      </form>
    </Dialog>
  );
}
