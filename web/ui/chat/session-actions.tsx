// The open session's actions: rename, export (JSON / Markdown), import JSON, delete.
import { createSignal, createUniqueId, Show } from 'solid-js';
import { exportSession, importSession, sessionToMarkdown, type SessionStore } from '../../core';
import { ConfirmDialog, Dialog } from '../components/dialog';
import type { AppState } from '../state/app-state';
import { messageOf } from '../state/errors';
import type { ChatTranslate } from './chat-i18n';

function download(name: string, text: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const fileName = (title: string, ext: string) => `${title.replace(/[^\p{L}\p{N}._-]+/gu, '-').slice(0, 60) || 'session'}.${ext}`;

export function SessionActions(props: { state: AppState; store: SessionStore; sessionId: string | null; title: string; busy: boolean; ct: ChatTranslate; onOpen: (id: string | null) => void; onNotice: (text: string) => void }) {
  const ct = props.ct;
  const s = props.state;
  const importId = createUniqueId();
  const titleId = createUniqueId();
  const [renaming, setRenaming] = createSignal(false);
  const [deleting, setDeleting] = createSignal(false);
  const [title, setTitle] = createSignal('');
  const [error, setError] = createSignal('');

  async function exportAs(kind: 'json' | 'md') {
    const id = props.sessionId;
    if (!id) return;
    const data = await exportSession(props.store, id);
    if (kind === 'json') download(fileName(data.title, 'json'), `${JSON.stringify(data, null, 2)}\n`, 'application/json');
    else download(fileName(data.title, 'md'), sessionToMarkdown(data.title, data.messages), 'text/markdown');
  }
  async function doImport(file: File | undefined) {
    if (!file) return;
    await s.attempt(async () => {
      let data: unknown;
      try {
        data = JSON.parse(await file.text());
      } catch (e) {
        throw new Error(`${file.name}: ${messageOf(e)}`, { cause: e });
      }
      const info = await importSession(props.store, data);
      await s.refreshSessions();
      props.onOpen(info.id);
      props.onNotice(ct('imported', { title: info.title }));
    });
  }
  async function rename(e: SubmitEvent) {
    e.preventDefault();
    try {
      await props.store.rename(props.sessionId!, title().trim());
      await s.refreshSessions();
      setRenaming(false);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <div class="session-actions" role="toolbar" aria-label={ct('actions')}>
      <Show when={props.sessionId}>
        <button type="button" class="button small ghost" disabled={props.busy} onClick={() => (setTitle(props.title), setError(''), setRenaming(true))}>
          {ct('rename')}
        </button>
        <button type="button" class="button small ghost" onClick={() => void s.attempt(() => exportAs('json'))}>
          {ct('exportJson')}
        </button>
        <button type="button" class="button small ghost" onClick={() => void s.attempt(() => exportAs('md'))}>
          {ct('exportMd')}
        </button>
      </Show>
      <label class="button small ghost file-button" for={importId}>
        {ct('importJson')}
      </label>
      <input
        id={importId}
        class="visually-hidden"
        type="file"
        accept="application/json,.json"
        disabled={props.busy}
        onChange={(e) => {
          void doImport(e.currentTarget.files?.[0]);
          e.currentTarget.value = '';
        }}
      />
      <Show when={props.sessionId}>
        <button type="button" class="button small danger-outline" disabled={props.busy} onClick={() => setDeleting(true)}>
          {ct('delete')}
        </button>
      </Show>
      <Show when={renaming()}>
        <Dialog
          title={ct('rename')}
          onClose={() => setRenaming(false)}
          closeLabel={ct('cancel')}
          footer={
            <button type="submit" form={`${titleId}-form`} class="button primary">
              {ct('save')}
            </button>
          }
        >
          <form id={`${titleId}-form`} class="form" onSubmit={rename}>
            <div class="field">
              <label for={titleId}>{ct('sessionTitle')}</label>
              <input id={titleId} type="text" required maxLength={200} value={title()} onInput={(e) => setTitle(e.currentTarget.value)} />
            </div>
            <p class="field-error" role="alert">
              {error()}
            </p>
          </form>
        </Dialog>
      </Show>
      <Show when={deleting()}>
        <ConfirmDialog
          title={ct('delete')}
          body={ct('deleteConfirm', { title: props.title })}
          confirmLabel={ct('delete')}
          cancelLabel={ct('cancel')}
          danger
          onConfirm={() =>
            void s.attempt(async () => {
              await props.store.delete(props.sessionId!);
              await s.refreshSessions();
              props.onOpen(null);
            })
          }
          onClose={() => setDeleting(false)}
        />
      </Show>
    </div>
  );
}
