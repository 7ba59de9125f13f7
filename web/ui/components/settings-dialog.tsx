// Loaded lazily: the settings dialog is not needed to show the first screen.
import {
  createResource,
  createSignal,
  createUniqueId,
  For,
  lazy,
  Match,
  onCleanup,
  Show,
  Suspense,
  Switch,
} from 'solid-js';
import {
  MAX_WORKSPACES,
  deleteSecret,
  listSecretNames,
  setSecret,
  readStorageUsage,
  readWorkspaceSettings,
  requestPersistentStorage,
  serializeSettings,
  updateWorkspaceSettings,
  type GlobalSettings,
  type WorkspaceRecord,
} from '../../core/page';
import { exportAllSettings, importAllSettings, previewAllSettingsImport } from '../../core/page';
import type { ImportReport, TrustChange } from '../../core/page';
import { ImportReview } from './settings-import-review';
import { formatBytes } from '../i18n/i18n';
import type { AppState } from '../state/app-state';
import { messageOf } from '../state/errors';
import { Dialog } from './dialog';
import { FilePick } from './file-pick';
import './settings-dialog.css';
import ModelTab from '../settings/providers/model-tab';

const PluginsTab = lazy(() => import('../settings/plugins/plugins-tab'));
const BridgeTab = lazy(() => import('../settings/bridge/bridge-tab'));
const AgentTab = lazy(() => import('../settings/agent/agent-tab'));
const UsageTab = lazy(() => import('../settings/usage/usage-tab'));

type Tab = 'general' | 'model' | 'agent' | 'usage' | 'workspaces' | 'secrets' | 'transfer' | 'plugins' | 'bridge';

export default function SettingsDialog(props: { state: AppState; onClose: () => void }) {
  const t = props.state.t;
  const [tab, setTab] = createSignal<Tab>('general');
  const tabs: { id: Tab; label: () => string }[] = [
    { id: 'general', label: () => t('settings.general') },
    { id: 'model', label: () => t('settings.model') },
    { id: 'agent', label: () => t('settings.agent') },
    { id: 'usage', label: () => t('settings.usage') },
    { id: 'workspaces', label: () => t('settings.workspaces') },
    { id: 'secrets', label: () => t('settings.secrets') },
    { id: 'transfer', label: () => t('settings.transfer') },
    { id: 'plugins', label: () => t('settings.plugins') },
    { id: 'bridge', label: () => t('settings.bridge') },
  ];
  const base = createUniqueId();
  // Beside the panel in a wide window (a vertical list; from 980 px the panel keeps the width it had under the
  // tabs), above it in a narrower one (wrapped rows, every tab in view). The same width as settings-dialog.css.
  const sideBySide = window.matchMedia('(min-width: 980px)');
  const [vertical, setVertical] = createSignal(sideBySide.matches);
  const onWidth = () => setVertical(sideBySide.matches);
  sideBySide.addEventListener('change', onWidth);
  onCleanup(() => sideBySide.removeEventListener('change', onWidth));
  const KEYS: Record<string, (i: number) => number> = {
    ArrowRight: (i) => i + 1,
    ArrowDown: (i) => i + 1,
    ArrowLeft: (i) => i - 1,
    ArrowUp: (i) => i - 1,
    Home: () => 0,
    End: () => tabs.length - 1,
  };
  function open(id: Tab, focus: boolean) {
    setTab(id);
    const button = document.getElementById(`${base}-tab-${id}`);
    if (focus) button?.focus();
    button?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }
  function onTabKey(event: KeyboardEvent) {
    const move = KEYS[event.key];
    if (!move) return;
    event.preventDefault();
    const i = tabs.findIndex((x) => x.id === tab());
    open(tabs[(move(i) + tabs.length) % tabs.length]!.id, true);
  }
  return (
    <Dialog
      title={t('settings.title')}
      onClose={props.onClose}
      closeLabel={t('common.close')}
      wide
      class="settings-dialog"
    >
      <div class="settings-layout">
        <div
          class="tabs"
          role="tablist"
          aria-label={t('settings.title')}
          aria-orientation={vertical() ? 'vertical' : 'horizontal'}
          onKeyDown={onTabKey}
        >
          <For each={tabs}>
            {(x) => (
              <button
                type="button"
                role="tab"
                id={`${base}-tab-${x.id}`}
                aria-selected={tab() === x.id}
                aria-controls={`${base}-panel`}
                tabIndex={tab() === x.id ? 0 : -1}
                // The open tab takes focus (the tab strip is how the dialog is read), not ×.
                data-autofocus={tab() === x.id ? '' : undefined}
                class="tab"
                onClick={() => open(x.id, false)}
              >
                {x.label()}
              </button>
            )}
          </For>
        </div>
        <div class="tab-panel" role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${tab()}`}>
          {/* Lazy tabs suspend here, not at the app root: suspending there would unmount the modal dialog. */}
          <Suspense>
            <Switch>
              <Match when={tab() === 'general'}>
                <GeneralTab state={props.state} />
              </Match>
              <Match when={tab() === 'model'}>
                <ModelTab state={props.state} />
              </Match>
              <Match when={tab() === 'agent'}>
                <AgentTab state={props.state} />
              </Match>
              <Match when={tab() === 'usage'}>
                <UsageTab state={props.state} />
              </Match>
              <Match when={tab() === 'workspaces'}>
                <WorkspacesTab state={props.state} />
              </Match>
              <Match when={tab() === 'secrets'}>
                <SecretsTab state={props.state} />
              </Match>
              <Match when={tab() === 'transfer'}>
                <TransferTab state={props.state} />
              </Match>
              <Match when={tab() === 'plugins'}>
                <PluginsTab state={props.state} />
              </Match>
              <Match when={tab() === 'bridge'}>
                <BridgeTab state={props.state} />
              </Match>
            </Switch>
          </Suspense>
        </div>
      </div>
    </Dialog>
  );
}

function GeneralTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const ids = { language: createUniqueId(), theme: createUniqueId(), hidden: createUniqueId() };
  const [usage, { refetch }] = createResource(() => readStorageUsage());
  const [refused, setRefused] = createSignal(false);
  const set = (patch: Partial<GlobalSettings>) => void s.attempt(() => s.updateSettings(patch));
  async function persist() {
    const ok = await requestPersistentStorage();
    setRefused(!ok);
    await refetch();
  }
  return (
    <div class="form">
      <div class="field">
        <label for={ids.language}>{t('settings.language')}</label>
        <select
          id={ids.language}
          value={s.settings().language}
          onChange={(e) => set({ language: e.currentTarget.value as GlobalSettings['language'] })}
        >
          <option value="system">{t('settings.languageSystem')}</option>
          <option value="en">English</option>
          <option value="zh">中文</option>
        </select>
      </div>
      <div class="field">
        <label for={ids.theme}>{t('settings.theme')}</label>
        <select
          id={ids.theme}
          value={s.settings().theme}
          onChange={(e) => set({ theme: e.currentTarget.value as GlobalSettings['theme'] })}
        >
          <option value="system">{t('settings.themeSystem')}</option>
          <option value="light">{t('settings.themeLight')}</option>
          <option value="dark">{t('settings.themeDark')}</option>
        </select>
      </div>
      <label class="checkbox">
        <input
          id={ids.hidden}
          type="checkbox"
          checked={s.settings().showHiddenFiles}
          onChange={(e) => set({ showHiddenFiles: e.currentTarget.checked })}
        />
        <span>{t('settings.showHidden')}</span>
      </label>
      <section class="storage-card" aria-labelledby={`${ids.hidden}-storage`}>
        <h3 id={`${ids.hidden}-storage`}>{t('settings.storage')}</h3>
        <Show when={usage()} fallback={<p class="field-hint">{usage.loading ? '…' : t('settings.storageUnknown')}</p>}>
          {(u) => (
            <>
              <p data-testid="storage-usage">
                {t('settings.storageUsage', {
                  used: formatBytes(u().usageBytes, s.locale()),
                  quota: formatBytes(u().quotaBytes, s.locale()),
                })}
              </p>
              <progress max={Math.max(u().quotaBytes, 1)} value={u().usageBytes} aria-label={t('settings.storage')} />
              <p class="field-hint">{u().persisted ? t('settings.persisted') : t('settings.notPersisted')}</p>
              <Show when={!u().persisted}>
                <button type="button" class="button small" onClick={persist}>
                  {t('settings.persist')}
                </button>
              </Show>
              <Show when={refused()}>
                <p class="field-hint">{t('settings.persistRefused')}</p>
              </Show>
            </>
          )}
        </Show>
      </section>
    </div>
  );
}

function WorkspacesTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  return (
    <div class="form">
      <p class="field-hint">{t('settings.workspaceCount', { count: s.workspaces().length, max: MAX_WORKSPACES })}</p>
      <Show when={s.workspaces().length > 0} fallback={<p class="empty-hint">{t('sidebar.noWorkspaces')}</p>}>
        <ul class="settings-list" role="list">
          <For each={s.workspaces()}>{(w) => <WorkspaceSettingsRow state={s} workspace={w} />}</For>
        </ul>
      </Show>
    </div>
  );
}

function WorkspaceSettingsRow(props: { state: AppState; workspace: WorkspaceRecord }) {
  const s = props.state;
  const t = s.t;
  const id = createUniqueId();
  const [overrides, { mutate }] = createResource(
    () => props.workspace.id,
    (wid) => readWorkspaceSettings(s.db, wid),
  );
  const value = () =>
    overrides()?.showHiddenFiles === undefined ? 'inherit' : overrides()?.showHiddenFiles ? 'on' : 'off';
  const gitId = createUniqueId();
  async function change(next: string) {
    const saved = await s.attempt(() =>
      updateWorkspaceSettings(s.db, props.workspace.id, {
        showHiddenFiles: next === 'inherit' ? undefined : next === 'on',
      }),
    );
    if (saved) {
      mutate(saved);
      s.settingsChanged();
    }
  }
  // Per workspace only, off by default (web/core/settings/schema.ts): absent and false both mean refused.
  async function changeGitWrites(allow: boolean) {
    const saved = await s.attempt(() =>
      updateWorkspaceSettings(s.db, props.workspace.id, { allowGitWrites: allow ? true : undefined }),
    );
    if (saved) {
      mutate(saved);
      s.settingsChanged();
    }
  }
  return (
    <li class="settings-row">
      <div>
        <strong>{props.workspace.name}</strong>
        <code class="meta-text">{props.workspace.id}</code>
      </div>
      <div class="field inline">
        <label for={id}>{t('settings.workspaceOverride')}</label>
        <select id={id} value={value()} onChange={(e) => void change(e.currentTarget.value)}>
          <option value="inherit">{t('settings.followGlobal')}</option>
          <option value="on">{t('settings.on')}</option>
          <option value="off">{t('settings.off')}</option>
        </select>
      </div>
      <div class="field inline">
        <input
          id={gitId}
          type="checkbox"
          checked={overrides()?.allowGitWrites === true}
          onChange={(e) => void changeGitWrites(e.currentTarget.checked)}
          aria-describedby={`${gitId}-hint`}
        />
        <label for={gitId}>{t('settings.allowGitWrites')}</label>
      </div>
      <p id={`${gitId}-hint`} class="field-hint">
        {t('settings.allowGitWritesHint')}
      </p>
    </li>
  );
}

function TransferTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const fileId = createUniqueId();
  const [result, setResult] = createSignal<{ ok: boolean; text: string } | null>(null);
  // A file that would loosen a protection waits here, with the changes its preview found, until the person chooses.
  const [review, setReview] = createSignal<{ name: string; text: string; changes: TrustChange[] } | null>(null);
  const [busy, setBusy] = createSignal(false);
  async function doExport() {
    const text = serializeSettings(await exportAllSettings(s.db));
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `i-settings-${new Date().toISOString().slice(0, 10)}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
  function reportText(report: ImportReport): string {
    const applied = [report.globalApplied ? t('settings.globalOnly') : '', ...report.applied]
      .filter(Boolean)
      .join(', ');
    const skipped = report.skipped.length
      ? ` ${t('settings.importedSkipped', { skipped: report.skipped.join(', ') })}`
      : '';
    const kept = report.heldBack.length ? ` ${t('importReview.keptAsIs', { count: report.heldBack.length })}` : '';
    return t('settings.imported', { applied: applied || '—' }) + skipped + kept;
  }
  async function apply(text: string, confirmed: readonly string[]) {
    setBusy(true);
    try {
      const report = await importAllSettings(s.db, text, { confirmed });
      setReview(null);
      setResult({ ok: true, text: reportText(report) });
      s.settingsChanged();
    } catch (error) {
      setReview(null);
      setResult({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  }
  async function doImport(file: File | undefined) {
    if (!file) return;
    setResult(null);
    setReview(null);
    try {
      const text = await file.text();
      const preview = await previewAllSettingsImport(s.db, text);
      if (preview.heldBack.length) setReview({ name: file.name, text, changes: preview.heldBack });
      else await apply(text, []);
    } catch (error) {
      setResult({ ok: false, text: messageOf(error) });
    }
  }
  return (
    <div class="form">
      <section class="transfer-card">
        <h3>{t('settings.export')}</h3>
        <p class="field-hint">{t('settings.exportHint')}</p>
        <button type="button" class="button" onClick={() => void s.attempt(doExport)}>
          {t('settings.export')}
        </button>
      </section>
      <section class="transfer-card">
        <h3 id={fileId}>{t('settings.import')}</h3>
        <p class="field-hint">{t('settings.importHint')}</p>
        <FilePick
          labelledBy={fileId}
          button={t('common.chooseFile')}
          none={t('common.noFileChosen')}
          accept="application/json,.json"
          onFile={(file) => void doImport(file)}
        />
        <Show when={review()}>
          {(r) => (
            <ImportReview
              t={t}
              fileName={r().name}
              changes={r().changes}
              busy={busy()}
              onApplyAll={() =>
                void apply(
                  r().text,
                  r().changes.map((c) => c.id),
                )
              }
              onApplySafe={() => void apply(r().text, [])}
              onCancel={() => {
                setReview(null);
                setResult({ ok: true, text: t('importReview.cancelled') });
              }}
            />
          )}
        </Show>
        <Show when={result()}>
          {(r) => (
            <p
              class={r().ok ? 'field-success' : 'field-error'}
              role={r().ok ? 'status' : 'alert'}
              data-testid="import-result"
            >
              {r().text}
            </p>
          )}
        </Show>
      </section>
    </div>
  );
}

// Names only: a stored value is never read back into the page's UI.
function SecretsTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const ids = { name: createUniqueId(), value: createUniqueId() };
  const [names, { refetch }] = createResource(() => listSecretNames(s.db));
  const [name, setName] = createSignal('');
  const [value, setValue] = createSignal('');
  const [error, setError] = createSignal('');
  async function save(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    try {
      await setSecret(s.db, name().trim(), value());
      setName('');
      setValue('');
      await refetch();
    } catch (e) {
      setError(messageOf(e));
    }
  }
  return (
    <div class="form">
      <p class="field-hint">{t('settings.secretsHint')}</p>
      <Show when={(names() ?? []).length > 0} fallback={<p class="empty-hint">{t('settings.secretsEmpty')}</p>}>
        <ul class="settings-list" role="list" aria-label={t('settings.secrets')}>
          <For each={names()}>
            {(secretName) => (
              <li class="settings-row">
                <code>{secretName}</code>
                <button
                  type="button"
                  class="button small danger-outline"
                  aria-label={t('settings.secretDelete', { name: secretName })}
                  onClick={() =>
                    void s.attempt(async () => {
                      await deleteSecret(s.db, secretName);
                      await refetch();
                    })
                  }
                >
                  {t('common.delete')}
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <form class="secret-form" onSubmit={save}>
        <div class="field">
          <label for={ids.name}>{t('settings.secretName')}</label>
          <input
            id={ids.name}
            type="text"
            required
            autocomplete="off"
            spellcheck={false}
            placeholder="OPENAI_API_KEY"
            value={name()}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={ids.value}>{t('settings.secretValue')}</label>
          <input
            id={ids.value}
            type="password"
            required
            autocomplete="off"
            value={value()}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="button primary">
          {t('settings.secretSave')}
        </button>
      </form>
      <p class="field-error" role="alert">
        {error()}
      </p>
    </div>
  );
}
