// Settings → Plugins: import a .hplugin.zip (validated by the shared validator in a Worker; a refusal shows its code and
// nothing is stored), see identity, version, permissions, tools and sha256, enable per workspace (installing
// never enables), disable, uninstall (its KV data only after an explicit choice), and try a tool.
import { createMemo, createResource, createSignal, createUniqueId, For, Show } from 'solid-js';
import { HarnessError } from '../../../core/contracts';
import type { InstalledPlugin } from '../../../core/page';
import type { PreparedImport } from '../../../core/page';
import type { AppState } from '../../state/app-state';
import { messageOf } from '../../state/errors';
import { pluginServiceFor } from './plugin-runtime';
import { shownName, shownText } from './shown-text';
import { TryToolPanel } from './try-tool-panel';
import { UninstallDialog } from './uninstall-dialog';
import { UpdatePluginDialog } from './update-dialog';
import './plugins.css';
import { FilePick } from '../../components/file-pick';

type Notice = { ok: boolean; text: string; code?: string };

export default function PluginsTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const service = pluginServiceFor(s.db);
  const fileId = createUniqueId();
  const [epoch, setEpoch] = createSignal(0);
  const [checking, setChecking] = createSignal(false);
  const [plugins] = createResource(epoch, () => service.registry.list());
  // Rendering reads `.latest`, never `plugins()`: reading a reloading resource suspends the settings dialog's
  // <Suspense>, which takes the whole tab out of the page until it loads (a click made then lands elsewhere).
  // A plugin whose bytes did not change keeps its object, so <For> keeps its card and what is open in it.
  const shown = createMemo<InstalledPlugin[]>(
    (prev) => (plugins.latest ?? []).map((p) => prev.find((q) => q.id === p.id && q.sha256 === p.sha256) ?? p),
    [],
  );
  const [notice, setNotice] = createSignal<Notice | null>(null);
  const [pending, setPending] = createSignal<PreparedImport | null>(null);
  const changed = () => setEpoch((n) => n + 1);
  const refused = (error: unknown) => {
    const code = HarnessError.isInstance(error) ? error.code : 'E_INTERNAL';
    setNotice({ ok: false, code, text: `${code}: ${messageOf(error)}` });
  };

  async function apply(prepared: PreparedImport) {
    try {
      const r = await prepared.apply();
      const p = r.plugin;
      const name = shownName(p.name);
      const text =
        r.status === 'installed'
          ? t('plugins.imported', { name, version: p.version })
          : r.status === 'updated'
            ? t('plugins.updated', { name, previous: r.previousVersion ?? '', version: p.version })
            : r.status === 'replaced'
              ? t('plugins.replaced', { name, version: p.version })
              : t('plugins.unchanged', { name, version: p.version });
      setNotice({
        ok: true,
        text: r.disabledIn.length ? `${text} ${t('plugins.disabledIn', { count: r.disabledIn.length })}` : text,
      });
      changed();
    } catch (error) {
      refused(error);
    }
  }

  // Validation runs in a Worker (web/core/plugins validate-off-thread.ts); nothing is stored before the plan is
  // applied, and an update of an installed id waits for the person's answer in UpdatePluginDialog.
  async function importBytes(bytes: Uint8Array) {
    setNotice(null);
    setPending(null);
    setChecking(true);
    try {
      const prepared = await service.prepareImport(bytes);
      const { decision, incoming } = prepared.plan;
      if (decision === 'unchanged')
        return setNotice({
          ok: true,
          text: t('plugins.unchanged', { name: shownName(incoming.name), version: incoming.version }),
        });
      if (decision === 'update') return setPending(prepared);
      await apply(prepared);
    } catch (error) {
      refused(error);
    } finally {
      setChecking(false);
    }
  }

  function cancelUpdate(prepared: PreparedImport) {
    setPending(null);
    const kept = prepared.plan.installed!;
    setNotice({ ok: true, text: t('plugins.updateCancelled', { name: shownName(kept.name), version: kept.version }) });
  }

  return (
    <div class="form plugins-tab">
      <p class="field-hint">{t('plugins.intro')}</p>
      <section class="transfer-card">
        <h3 id={fileId}>{t('plugins.import')}</h3>
        <FilePick
          labelledBy={fileId}
          button={t('common.chooseFile')}
          none={t('common.noFileChosen')}
          accept=".zip,.hplugin.zip,application/zip"
          onFile={(file) => void file.arrayBuffer().then((b) => importBytes(new Uint8Array(b)), refused)}
        />
        <Show when={notice()}>
          {(n) => (
            <div
              class={n().ok ? 'field-success' : 'field-error'}
              role={n().ok ? 'status' : 'alert'}
              data-testid="plugin-import-result"
            >
              <Show when={!n().ok}>
                <strong>{t('plugins.refused')}</strong>{' '}
              </Show>
              <span>{n().text}</span>
            </div>
          )}
        </Show>
        <Show when={checking()}>
          <p class="field-hint" role="status">
            {t('plugins.checking')}
          </p>
        </Show>
        <Show when={pending()}>
          {(p) => {
            // Read once: after setPending(null) the accessor is stale and throws.
            const prepared = p();
            const confirm = () => {
              setPending(null);
              void apply(prepared);
            };
            return (
              <UpdatePluginDialog
                t={t}
                prepared={prepared}
                onConfirm={confirm}
                onCancel={() => cancelUpdate(prepared)}
              />
            );
          }}
        </Show>
      </section>
      <Show when={shown().length > 0} fallback={<p class="empty-hint">{plugins.loading ? '…' : t('plugins.empty')}</p>}>
        <ul class="plugin-list" role="list" aria-label={t('settings.plugins')}>
          <For each={shown()}>{(p) => <PluginCard state={s} plugin={p} onChanged={changed} epoch={epoch()} />}</For>
        </ul>
      </Show>
    </div>
  );
}

function PluginCard(props: { state: AppState; plugin: InstalledPlugin; onChanged: () => void; epoch: number }) {
  const s = props.state;
  const t = s.t;
  const service = pluginServiceFor(s.db);
  // Starts resolved (undefined: not known yet) and is read through `.latest` only, so neither the first load nor a
  // reload suspends the dialog (see `shown` above). A load started later wins over an earlier one still running.
  const [state, { refetch, mutate }] = createResource<Set<string> | undefined, { id: string; epoch: number }>(
    () => ({ id: props.plugin.id, epoch: props.epoch }),
    async ({ id }) => {
      const on = new Set<string>();
      for (const w of s.workspaces())
        if ((await service.registry.enabledIn(w.id)).some((p) => p.id === id)) on.add(w.id);
      return on;
    },
    { initialValue: undefined },
  );
  const enabled = () => state.latest;
  const [busy, setBusy] = createSignal(false);
  const [failure, setFailure] = createSignal<string | null>(null);
  const [trying, setTrying] = createSignal(false);
  const [uninstalling, setUninstalling] = createSignal(false);
  const access = () =>
    props.plugin.permissions.workspace === 'none'
      ? t('plugins.accessNone')
      : props.plugin.permissions.workspace === 'read'
        ? t('plugins.accessRead')
        : t('plugins.accessReadWrite');
  // The box shows the choice at once (so the Try panel opens its form without waiting) and is locked until the
  // write is done; then the stored state is read back, so a failed write unticks the box and says why on the card.
  async function toggle(workspace: { id: string; name: string }, on: boolean) {
    setFailure(null);
    setBusy(true);
    const next = new Set(enabled());
    if (on) next.add(workspace.id);
    else next.delete(workspace.id);
    mutate(next);
    try {
      await (on
        ? service.registry.enable(workspace.id, props.plugin.id)
        : service.registry.disable(workspace.id, props.plugin.id));
    } catch (error) {
      const code = HarnessError.isInstance(error) ? error.code : 'E_PLUGIN_ENABLE_FAILED';
      const text = HarnessError.isInstance(error)
        ? messageOf(error)
        : t(on ? 'plugins.enableFailed' : 'plugins.disableFailed', {
            name: shownName(props.plugin.name),
            workspace: workspace.name,
            reason: messageOf(error),
          });
      setFailure(`${code}: ${text}`);
    }
    try {
      await refetch();
    } finally {
      setBusy(false);
    }
  }
  const headingId = createUniqueId();
  return (
    <li class="plugin-card" aria-labelledby={headingId} aria-busy={busy()} data-plugin-id={props.plugin.id}>
      <header class="plugin-card-head">
        <div>
          <h3 id={headingId}>{shownName(props.plugin.name)}</h3>
          <code class="meta-text">{shownName(props.plugin.id)}</code>
        </div>
        <span class="badge">{t('plugins.version', { version: props.plugin.version })}</span>
      </header>
      <dl class="plugin-facts">
        <dt>{t('plugins.permissions')}</dt>
        <dd>
          {t('plugins.permWorkspace', { access: access() })} ·{' '}
          {t('plugins.permStorage', { on: props.plugin.permissions.storage ? t('plugins.yes') : t('plugins.no') })}
        </dd>
        <dt>{t('plugins.tools')}</dt>
        <dd>
          <ul class="plugin-tools" role="list">
            <For each={props.plugin.tools}>
              {(tool) => (
                <li>
                  <code>{shownName(tool.name)}</code> <span class="meta-text">({shownName(tool.publicName)})</span> —{' '}
                  <span class="plugin-tool-description">{shownText(tool.description)}</span>
                </li>
              )}
            </For>
          </ul>
        </dd>
        <dt>{t('plugins.sha256')}</dt>
        <dd>
          <code class="plugin-hash" data-testid="plugin-sha256">
            {props.plugin.sha256}
          </code>
          <p class="field-hint">{t('plugins.hashNote')}</p>
        </dd>
        <dt>{t('plugins.enabledIn')}</dt>
        <dd>
          <Show when={s.workspaces().length > 0} fallback={<p class="field-hint">{t('plugins.noWorkspaces')}</p>}>
            <For each={s.workspaces()}>
              {(w) => (
                <label class="checkbox">
                  <input
                    type="checkbox"
                    checked={enabled()?.has(w.id) ?? false}
                    disabled={busy() || enabled() === undefined}
                    onChange={(e) => void toggle(w, e.currentTarget.checked)}
                    aria-label={t('plugins.enableFor', { workspace: w.name })}
                  />
                  <span>{w.name}</span>
                </label>
              )}
            </For>
          </Show>
          <Show when={failure()}>
            {(f) => (
              <p class="field-error" role="alert" data-testid="plugin-enable-error">
                {f()}
              </p>
            )}
          </Show>
        </dd>
      </dl>
      <div class="form-actions plugin-actions">
        <button type="button" class="button small" aria-expanded={trying()} onClick={() => setTrying((x) => !x)}>
          {t('plugins.try')}
        </button>
        <button type="button" class="button small danger-outline" onClick={() => setUninstalling(true)}>
          {t('plugins.uninstall')}
        </button>
      </div>
      <Show when={trying() && enabled()}>
        <TryToolPanel state={s} plugin={props.plugin} enabledIn={s.workspaces().filter((w) => enabled()!.has(w.id))} />
      </Show>
      <Show when={uninstalling()}>
        <UninstallDialog
          state={s}
          plugin={props.plugin}
          onClose={() => setUninstalling(false)}
          onDone={props.onChanged}
        />
      </Show>
    </li>
  );
}
