// Settings → Model → Images and Files (provider Files, seed 003): how images reach the model (inline or uploaded
// once), the provider-operations switch (part of the model form, saved with it), and the provider's files with size
// and age, marked when this workspace uploaded them; a delete always asks first, in the page.
import { createSignal, For, Show } from 'solid-js';
import { checkModelConfig, readStoredModel } from '../../../core/page';
import { manageFromPage, readProviderJson, saveProviderJson } from '../../../core/page';
import { filesUnsupportedReason, MAX_LIST_PAGES, type ListedFile, type ProviderJson } from '../../../core/page';
import { chatTranslator } from '../../chat/chat-i18n';
import type { AppState } from '../../state/app-state';
import { codeOf, messageOf } from '../../state/errors';

function ago(ms: number, locale: string): string {
  const s = Math.max(0, Math.round((Date.now() - ms) / 1000));
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
  if (s < 60) return rtf.format(-s, 'second');
  if (s < 3600) return rtf.format(-Math.round(s / 60), 'minute');
  if (s < 86_400) return rtf.format(-Math.round(s / 3600), 'hour');
  return rtf.format(-Math.round(s / 86_400), 'day');
}

/** Sizes as people read them: bytes below 1 KiB, else KB/MB with one decimal (1024-based, like the Files panel). */
function size(bytes: number | null): string {
  if (bytes === null) return '?';
  if (bytes < 1024) return `${bytes} B`;
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function ProviderFilesSection(props: {
  state: AppState;
  id: string;
  protocol: string;
  operations: boolean;
  onOperations: (on: boolean) => void;
}) {
  const s = props.state;
  const ct = chatTranslator(s.locale);
  const [pj, setPj] = createSignal<ProviderJson | null>(null);
  const [files, setFiles] = createSignal<ListedFile[] | null>(null);
  // false: the provider said more files follow than the bounded list read.
  const [complete, setComplete] = createSignal(true);
  const [loading, setLoading] = createSignal(false);
  const [asking, setAsking] = createSignal<{ id: string; answer: (yes: boolean) => void } | null>(null);
  const [status, setStatus] = createSignal<{ ok: boolean; text: string } | null>(null);
  void readProviderJson(s.db).then(setPj, (e: unknown) =>
    setStatus({ ok: false, text: `${codeOf(e) ?? 'E_CONFIG_INVALID'}: ${messageOf(e)}` }),
  );

  const setImages = async (images: 'base64' | 'files') => {
    // gc_expired is headless i's; an imported one is dropped here rather than refused (the app never runs it).
    const { gc_expired: _gc, ...kept } = pj() ?? { images: 'base64', account_scope: null, expires_after_seconds: null };
    const next = { ...kept, images };
    await s.attempt(() => saveProviderJson(s.db, next));
    setPj(next);
  };
  const note = () => {
    const images = pj()?.images ?? 'base64';
    if (images === 'files') {
      const reason = filesUnsupportedReason(props.protocol);
      if (reason) return ct('filesUnsupported', { reason });
      if (!props.operations) return ct('filesNeedsOperations');
    } else if (props.operations) return ct('filesNeedsFiles');
    return null;
  };

  async function run<T>(
    work: (model: ReturnType<typeof checkModelConfig>, workspaceId: string) => Promise<T>,
  ): Promise<T | undefined> {
    setStatus(null);
    const workspaceId = s.selected()?.id;
    if (!workspaceId) {
      setStatus({ ok: false, text: ct('filesNoWorkspace') });
      return undefined;
    }
    try {
      const stored = (await readStoredModel(s.db, workspaceId)) ?? (await readStoredModel(s.db, null));
      if (!stored) throw new Error('E_MODEL_NOT_CONFIGURED');
      return await work(checkModelConfig(stored.config), workspaceId);
    } catch (e) {
      setStatus({ ok: false, text: `${codeOf(e) ?? 'E_PROVIDER_MANAGE_FAILED'}: ${messageOf(e)}` });
      return undefined;
    }
  }

  const load = async () => {
    setLoading(true);
    const r = await run((model, ws) => manageFromPage(s.db, ws, model, { action: 'list' }, async () => false));
    setLoading(false);
    if (r?.action === 'list') {
      setFiles(r.files);
      setComplete(r.complete);
    }
  };

  const remove = async (id: string) => {
    const confirm = () => new Promise<boolean>((answer) => setAsking({ id, answer }));
    const r = await run((model, ws) => manageFromPage(s.db, ws, model, { action: 'delete', file_id: id }, confirm));
    setAsking(null);
    if (r?.action === 'delete') {
      setStatus({ ok: true, text: ct('filesDeleted', { id }) });
      setFiles((list) => (list ?? []).filter((f) => f.file_id !== id));
    }
  };
  const answer = (yes: boolean) => asking()?.answer(yes);

  return (
    <section class="provider-files span-2" aria-labelledby={`${props.id}-files-h`}>
      <div class="field">
        <label for={`${props.id}-images`}>{ct('filesImages')}</label>
        <select
          id={`${props.id}-images`}
          value={pj()?.images ?? 'base64'}
          onChange={(e) => void setImages(e.currentTarget.value === 'files' ? 'files' : 'base64')}
        >
          <option value="base64">{ct('filesImagesBase64')}</option>
          <option value="files">{ct('filesImagesFiles')}</option>
        </select>
        <p class="field-hint">{ct('filesImagesHint')}</p>
      </div>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={props.operations}
          onChange={(e) => props.onOperations(e.currentTarget.checked)}
        />
        <span>{ct('filesOperations')}</span>
      </label>
      <p class="field-hint">{ct('filesOperationsHint')}</p>
      <Show when={note()}>
        {(n) => (
          <p class="field-note" role="note">
            {n()}
          </p>
        )}
      </Show>
      <h3 id={`${props.id}-files-h`}>{ct('filesRemote')}</h3>
      <p class="field-hint">{ct('filesRemoteHint')}</p>
      <button type="button" class="button" disabled={loading()} onClick={() => void load()}>
        {loading() ? ct('filesLoading') : ct('filesLoad')}
      </button>
      <Show when={files()}>
        {(list) => (
          <Show when={list().length} fallback={<p class="field-hint">{ct('filesNone')}</p>}>
            <ul class="provider-files-list" aria-label={ct('filesRemote')}>
              <For each={list()}>
                {(file) => (
                  <li>
                    <span class="mono">{file.file_id}</span>
                    <span>{size(file.bytes)}</span>
                    <Show when={file.created_at !== null}>
                      <span>{ct('filesAge', { age: ago(file.created_at!, s.locale()) })}</span>
                    </Show>
                    <Show when={file.known}>
                      <span class="badge">{ct('filesOurs')}</span>
                    </Show>
                    <button
                      type="button"
                      class="button danger"
                      aria-label={`${ct('filesDelete')} ${file.file_id}`}
                      onClick={() => void remove(file.file_id)}
                    >
                      {ct('filesDelete')}
                    </button>
                  </li>
                )}
              </For>
            </ul>
            <Show when={!complete()}>
              <p class="field-hint">
                {ct('filesMore', { count: String(list().length), pages: String(MAX_LIST_PAGES) })}
              </p>
            </Show>
          </Show>
        )}
      </Show>
      <Show when={asking()}>
        {(a) => (
          <div class="provider-files-confirm" role="alertdialog" aria-label={ct('filesConfirmDelete')}>
            <p>{ct('filesConfirm', { id: a().id })}</p>
            <button type="button" class="button danger" onClick={() => answer(true)}>
              {ct('filesConfirmDelete')}
            </button>
            <button type="button" class="button" onClick={() => answer(false)}>
              {ct('filesCancel')}
            </button>
          </div>
        )}
      </Show>
      <Show when={status()}>
        {(st) => (
          <p class={st().ok ? 'field-success' : 'field-error'} role={st().ok ? 'status' : 'alert'}>
            {st().text}
          </p>
        )}
      </Show>
    </section>
  );
}
