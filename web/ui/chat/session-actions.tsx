// The open session in the top bar: its title (renamed in place) and the session menu — rename, fork, export JSON /
// Markdown, import JSON, the session's usage totals (tokens, cache, cost; details in a dialog), delete. The import's file input stays in the page (labelled "Import JSON") so the menu
// item can open it and a file can also be given to it directly.
import { createEffect, createSignal, createUniqueId, on, Show } from 'solid-js';
import { forkSession, importSession, type SessionStore } from '../../core/page';
import type { UsageTotals } from '../../core/contracts';
import { ConfirmDialog, Dialog } from '../components/dialog';
import { InlineRename } from '../components/inline-rename';
import { MoreIcon } from '../components/layout-icons';
import { MenuButton, type MenuItem } from '../components/menu';
import type { AppState } from '../state/app-state';
import { messageOf } from '../state/errors';
import { TotalsList } from '../settings/usage/totals-list';
import { downloadSession } from './composer-actions';
import { formatCost, formatTokens } from './meter-format';

export function SessionActions(props: {
  state: AppState;
  store: SessionStore;
  sessionId: string | null;
  title: string;
  busy: boolean;
  messageCount: number;
  onOpen: (id: string | null) => void;
  /** The open session's totals (ChatController.sessionUsage). */
  usage?: () => Promise<UsageTotals>;
}) {
  const s = props.state;
  const t = s.t;
  const importId = createUniqueId();
  const [renaming, setRenaming] = createSignal(false);
  const [deleting, setDeleting] = createSignal(false);
  let importInput!: HTMLInputElement;
  const [totals, setTotals] = createSignal<UsageTotals | null>(null);
  const [showUsage, setShowUsage] = createSignal(false);
  // Re-read when another session opens, after each turn (not during one: the log is still being written) and when
  // settings change (the prices price the same steps differently).
  createEffect(
    on(
      [() => props.sessionId, () => props.messageCount, () => props.busy, () => s.settingsEpoch()],
      ([id, , busy], before) => {
        if (before && before[0] !== id) setTotals(null);
        if (!id || busy || !props.usage) return;
        void props.usage().then(
          (u) => props.sessionId === id && setTotals(u),
          () => undefined,
        );
      },
    ),
  );

  async function exportAs(kind: 'json' | 'md') {
    if (props.sessionId) await downloadSession(props.store, props.sessionId, kind);
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
      s.notify('info', t('sessions.imported', { title: info.title }));
    });
  }
  async function fork() {
    const id = props.sessionId;
    if (!id || props.messageCount === 0) return;
    await s.attempt(async () => {
      const info = await forkSession(props.store, id, props.messageCount - 1);
      await s.refreshSessions();
      props.onOpen(info.id);
      s.notify('info', t('sessions.forked', { title: info.title }));
    });
  }
  async function rename(title: string) {
    await props.store.rename(props.sessionId!, title);
    await s.refreshSessions();
  }

  const items = (): MenuItem[] => {
    const open = props.sessionId !== null;
    return [
      ...(open
        ? [
            { label: t('sessions.rename'), disabled: props.busy, onSelect: () => setRenaming(true) },
            {
              label: t('sessions.fork'),
              disabled: props.busy || props.messageCount === 0,
              onSelect: () => void fork(),
            },
            { label: t('sessions.exportJson'), onSelect: () => void s.attempt(() => exportAs('json')) },
            { label: t('sessions.exportMd'), onSelect: () => void s.attempt(() => exportAs('md')) },
          ]
        : []),
      ...(open && props.usage
        ? [
            {
              label: totals()
                ? t('usage.session.menu', {
                    input: formatTokens(totals()!.input_tokens),
                    output: formatTokens(totals()!.output_tokens),
                    cost: formatCost(totals()!.cost),
                  })
                : t('usage.session.menuLoading'),
              onSelect: () => setShowUsage(true),
            },
          ]
        : []),
      { label: t('sessions.importJson'), disabled: props.busy, onSelect: () => importInput.click() },
      ...(open
        ? [{ label: t('sessions.delete'), danger: true, disabled: props.busy, onSelect: () => setDeleting(true) }]
        : []),
    ];
  };

  return (
    <div class="session-header">
      <Show
        when={renaming() && props.sessionId}
        fallback={
          <h2
            id="chat-title"
            class="chat-title"
            title={props.title}
            onDblClick={() => props.sessionId && !props.busy && setRenaming(true)}
          >
            {props.title}
          </h2>
        }
      >
        <InlineRename
          value={props.title}
          label={t('sessions.title')}
          hint={t('sessions.renameHint')}
          maxLength={500}
          onSave={rename}
          onDone={() => setRenaming(false)}
        />
      </Show>
      <MenuButton label={t('layout.sessionMenu')} items={items()}>
        <MoreIcon />
      </MenuButton>
      <input
        ref={(el) => (importInput = el)}
        id={importId}
        class="visually-hidden"
        type="file"
        tabIndex={-1}
        aria-label={t('sessions.importJson')}
        accept="application/json,.json"
        disabled={props.busy}
        onChange={(e) => {
          void doImport(e.currentTarget.files?.[0]);
          e.currentTarget.value = '';
        }}
      />
      <Show when={showUsage()}>
        <Dialog title={t('usage.session.title')} onClose={() => setShowUsage(false)} closeLabel={t('common.close')}>
          <div class="usage-session" data-testid="session-usage">
            <Show when={totals()} fallback={<p class="field-hint">{t('usage.loading')}</p>}>
              {(u) => (
                <Show when={u().steps > 0} fallback={<p class="empty-hint">{t('usage.session.none')}</p>}>
                  <TotalsList totals={u()} t={t} locale={s.locale()} />
                </Show>
              )}
            </Show>
            <p class="field-hint">{t('usage.session.pricesLink')}</p>
          </div>
        </Dialog>
      </Show>
      <Show when={deleting()}>
        <ConfirmDialog
          title={t('sessions.delete')}
          body={t('sessions.deleteConfirm', { title: props.title })}
          confirmLabel={t('sessions.delete')}
          cancelLabel={t('common.cancel')}
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
