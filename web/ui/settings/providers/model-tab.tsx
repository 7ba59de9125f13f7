// Settings → Model: provider preset, protocol, address, model, API key (stored in the secrets store under a
// name, never shown again), output and budget fields, extra_body, route with its reason, Test connection, and
// import of a model config file. Saved globally or for one workspace.
import './model-tab.css';
import { createResource, createSignal, createUniqueId, For, Show } from 'solid-js';
import { findPreset, getSecret, PROVIDER_PRESETS, type ConnectionReport, type Route } from '../../../core/page';
import { checkModelConfig, readStoredModel, saveModel } from '../../../core/page';
import { chatTranslator } from '../../chat/chat-i18n';
import { errorText, routeNoteText } from '../../chat/core-text';
import type { AppState } from '../../state/app-state';
import { ScopeField } from '../scope-field';
import { codeOf, messageOf } from '../../state/errors';
import { BUILTIN_PROTOCOLS, isBuiltinProtocol } from '../../../core/page';
import { BrowserModelSection } from '../browser-model/browser-model-section';
import {
  CUSTOM_PRESET,
  emptyForm,
  formFromConfig,
  formFromPreset,
  saveModelForm,
  suggestKeyName,
  testModelForm,
  type ProviderForm,
} from './provider-form';
import { ProviderFilesSection } from './files-section';
import { createWindowFill } from './context-window';
import { FilePick } from '../../components/file-pick';

/** Whether an Advanced setting differs from what the preset (or a new form) has: then the section opens by itself. */
function advancedInUse(form: ProviderForm): boolean {
  const p = findPreset(form.preset);
  const extra = form.extra_body.trim();
  return (
    form.tool_protocol === 'json' ||
    form.provider_operations ||
    (extra !== '' && extra !== '{}') ||
    (p !== undefined && p.use_max_tokens !== form.use_max_tokens)
  );
}

/** The select's entry for any other selector: a custom protocol served by the paired bridge's provider worker. */
const CUSTOM_PROTOCOL = '(custom)';

export default function ModelTab(props: { state: AppState }) {
  const s = props.state;
  const ct = chatTranslator(s.locale);
  const id = createUniqueId();
  const f = (name: string) => `${id}-${name}`;
  const [scope, setScope] = createSignal<string | null>(null);
  const [form, setForm] = createSignal<ProviderForm>(emptyForm());
  const [inherits, setInherits] = createSignal(false);
  const [key, setKey] = createSignal('');
  const [status, setStatus] = createSignal<{ ok: boolean; text: string } | null>(null);
  const [report, setReport] = createSignal<ConnectionReport | null>(null);
  const [testing, setTesting] = createSignal(false);
  const [loaded, setLoaded] = createSignal(false);
  const [advancedOpen, setAdvancedOpen] = createSignal(false);
  const windowFill = createWindowFill({
    db: s.db,
    form,
    setWindow: (value) => setForm((cur) => ({ ...cur, context_window: value })),
    typedKey: key,
  });
  const [keyStored, { refetch: recheckKey }] = createResource(
    () => form().api_key_env.trim(),
    async (name) => (name ? (await getSecret(s.db, name)) !== undefined : false),
  );

  async function load(workspaceId: string | null) {
    setStatus(null);
    setReport(null);
    const stored = await readStoredModel(s.db, workspaceId);
    setInherits(workspaceId !== null && !stored);
    const fallback = stored ?? (workspaceId ? await readStoredModel(s.db, null) : null);
    let next: ProviderForm;
    try {
      next = fallback ? formFromConfig(fallback.config, fallback.preset) : emptyForm();
    } catch (error) {
      next = emptyForm();
      setStatus({ ok: false, text: `${codeOf(error) ?? 'E_CONFIG_INVALID'}: ${messageOf(error)}` });
    }
    windowFill.loading(next);
    setForm(next);
    windowFill.recheck();
    setAdvancedOpen(advancedInUse(next));
    setLoaded(true);
  }
  void load(null);

  const patch = (p: Partial<ProviderForm>) =>
    setForm((cur) => ({
      ...cur,
      ...p,
      preset:
        p.preset ?? (Object.keys(p).some((k) => ['protocol', 'base_url'].includes(k)) ? CUSTOM_PRESET : cur.preset),
    }));
  const preset = () => findPreset(form().preset);
  const protocolLabel = (p: string) =>
    ({
      openai: ct('protocolOpenai'),
      responses: ct('protocolResponses'),
      anthropic: ct('protocolAnthropic'),
      deepseek: ct('protocolDeepseek'),
    })[p] ?? p;
  const windowNote = () => {
    const o = windowFill.origin();
    if (form().context_window.trim() && o) {
      if (o.kind === 'preset') return ct('windowFromPreset', { source: o.source, date: o.as_of });
      if (o.kind === 'server') return ct('windowFromServer', { field: o.field, from: o.from });
      if (o.kind === 'saved') return ct('windowSaved');
      return ct('windowTyped');
    }
    return null;
  };
  /** Nothing knows the window: the field is required, and says why. */
  const windowRequired = () => {
    const l = windowFill.lookup();
    return !form().context_window.trim() && l.state === 'unknown';
  };
  const routeNote = () => {
    const p = preset();
    if (p && p.route === form().route) return routeNoteText(p, s.locale());
    return form().route === 'bridge' ? ct('routeNoteBridge') : ct('routeNoteDirect');
  };

  // The key field empties once the key is stored: it is never shown again.
  async function keyStoredNow(stored: boolean) {
    if (!stored) return;
    setKey('');
    await recheckKey();
  }
  async function save(event: SubmitEvent) {
    event.preventDefault();
    setStatus(null);
    // A window still being looked up is waited for; one nothing knows is asked for, with the reason beside the field.
    await windowFill.settled();
    if (!form().context_window.trim() && form().protocol !== 'browser') {
      setStatus({ ok: false, text: ct('windowMissing', { model: form().model.trim() || ct('model') }) });
      document.getElementById(f('window'))?.focus();
      return;
    }
    try {
      await saveModelForm(s.db, scope(), form(), key());
      await keyStoredNow(Boolean(form().api_key_env.trim() && key()));
      setInherits(false);
      setStatus({ ok: true, text: ct('saved') });
      s.settingsChanged();
    } catch (error) {
      setStatus({ ok: false, text: `${codeOf(error) ?? 'E_CONFIG_INVALID'}: ${messageOf(error)}` });
    }
  }
  async function test() {
    setStatus(null);
    setReport(null);
    setTesting(true);
    try {
      const typed = Boolean(form().api_key_env.trim() && key());
      const result = await testModelForm(s.db, form(), key());
      await keyStoredNow(typed);
      setReport(result);
    } catch (error) {
      setStatus({ ok: false, text: `${codeOf(error) ?? 'E_CONFIG_INVALID'}: ${messageOf(error)}` });
    } finally {
      setTesting(false);
    }
  }
  async function importFile(file: File | undefined) {
    if (!file) return;
    setStatus(null);
    try {
      const config = checkModelConfig(await file.text());
      const raw = JSON.parse(await file.text()) as Record<string, unknown>;
      const next = formFromConfig(raw, null);
      windowFill.loading(next);
      setForm(next);
      windowFill.recheck();
      await saveModel(s.db, scope(), { config: raw, preset: null });
      setInherits(false);
      setStatus({
        ok: true,
        text: config.api_key_env ? ct('importedConfig', { name: config.api_key_env }) : ct('importedConfigNoKey'),
      });
      s.settingsChanged();
    } catch (error) {
      setStatus({ ok: false, text: `${file.name}: ${codeOf(error) ?? 'E_CONFIG_INVALID'}: ${messageOf(error)}` });
    }
  }
  async function removeOverride() {
    const w = scope();
    if (!w) return;
    await s.attempt(() => saveModel(s.db, w, null));
    s.settingsChanged();
    await load(w);
  }

  const hint = (name: string) => f(`${name}-hint`);
  return (
    <Show when={loaded()}>
      <form class="form model-form" onSubmit={save}>
        <ScopeField
          id={f('scope')}
          label={ct('scope')}
          globalLabel={ct('scopeGlobal')}
          workspaceLabel={(name) => ct('scopeWorkspace', { name })}
          workspaces={s.workspaces()}
          scope={scope()}
          onChange={(v) => {
            setScope(v);
            void load(v);
          }}
          inherits={inherits()}
          inheritsText={ct('useGlobal')}
          removeText={ct('removeOverride')}
          onRemove={() => void removeOverride()}
        />
        <section class="model-section" aria-labelledby={f('sec-connection')}>
          <header class="model-section-head">
            <h3 id={f('sec-connection')}>{ct('sectionConnection')}</h3>
            <p class="field-hint">{ct('sectionConnectionHint')}</p>
          </header>
          <div class="form-grid">
            <div class="field">
              <label for={f('preset')}>{ct('preset')}</label>
              <select
                id={f('preset')}
                aria-describedby={hint('preset')}
                value={form().preset}
                onChange={(e) => {
                  const p = findPreset(e.currentTarget.value);
                  if (p) setForm((cur) => formFromPreset(p, cur));
                  else patch({ preset: CUSTOM_PRESET });
                }}
              >
                <For each={PROVIDER_PRESETS}>{(p) => <option value={p.id}>{p.label}</option>}</For>
                <option value={CUSTOM_PRESET}>{ct('presetCustom')}</option>
              </select>
              <p class="field-hint" id={hint('preset')}>
                {ct('presetHint')}
              </p>
            </div>
            <div class="field">
              <label for={f('protocol')}>{ct('protocol')}</label>
              <select
                id={f('protocol')}
                aria-describedby={hint('protocol')}
                value={isBuiltinProtocol(form().protocol) ? form().protocol : CUSTOM_PROTOCOL}
                onChange={(e) =>
                  patch({ protocol: e.currentTarget.value === CUSTOM_PROTOCOL ? '' : e.currentTarget.value })
                }
              >
                <For each={BUILTIN_PROTOCOLS}>{(p) => <option value={p}>{protocolLabel(p)}</option>}</For>
                <option value={CUSTOM_PROTOCOL}>{ct('protocolCustom')}</option>
              </select>
              <p class="field-hint" id={hint('protocol')}>
                {ct('protocolHint')}
              </p>
            </div>
            <Show when={!isBuiltinProtocol(form().protocol)}>
              <div class="field">
                <label for={f('custom-protocol')}>{ct('customProtocol')}</label>
                <input
                  id={f('custom-protocol')}
                  type="text"
                  required
                  spellcheck={false}
                  placeholder="my-service"
                  value={form().protocol}
                  onInput={(e) => patch({ protocol: e.currentTarget.value.trim() })}
                />
              </div>
              <p class="field-hint span-2">{ct('customProtocolHint')}</p>
            </Show>
            <div class="field span-2">
              <label for={f('base')}>{ct('baseUrl')}</label>
              <input
                id={f('base')}
                type="text"
                inputMode="url"
                required
                spellcheck={false}
                aria-describedby={hint('base')}
                value={form().base_url}
                onInput={(e) => patch({ base_url: e.currentTarget.value })}
              />
              <p class="field-hint" id={hint('base')}>
                {ct('baseUrlHint')}
              </p>
            </div>
            <div class="field span-2">
              <label for={f('model')}>{ct('model')}</label>
              <input
                id={f('model')}
                type="text"
                required
                spellcheck={false}
                aria-describedby={hint('model')}
                placeholder="gpt-4.1"
                value={form().model}
                onInput={(e) => patch({ model: e.currentTarget.value } as Partial<ProviderForm>)}
              />
              <p class="field-hint" id={hint('model')}>
                {ct('modelHint')}
              </p>
            </div>
            <div class="field span-2 window-field" classList={{ 'is-required': windowRequired() }}>
              <label for={f('window')}>{ct('contextWindow')}</label>
              <input
                id={f('window')}
                type="text"
                inputMode="numeric"
                required={windowRequired()}
                aria-invalid={windowRequired() ? true : undefined}
                aria-describedby={`${hint('window')} ${hint('window-source')}`}
                value={form().context_window}
                onInput={(e) => {
                  patch({ context_window: e.currentTarget.value } as Partial<ProviderForm>);
                  windowFill.typed(e.currentTarget.value);
                }}
              />
              <p class="field-hint" id={hint('window')}>
                {ct('contextWindowHint')}
              </p>
              <div id={hint('window-source')} aria-live="polite" data-testid="window-source">
                <Show when={windowNote()}>{(note) => <p class="field-hint window-origin">{note()}</p>}</Show>
                <Show when={!form().context_window.trim() && windowFill.lookup().state === 'looking'}>
                  <p class="field-hint">{ct('windowLooking')}</p>
                </Show>
                <Show when={windowRequired()}>
                  <p class="field-required">
                    {(() => {
                      const l = windowFill.lookup();
                      return l.state === 'unknown' && l.reason === 'no-list'
                        ? ct('windowRequiredCustom')
                        : ct('windowRequired');
                    })()}
                  </p>
                  <Show
                    when={(() => {
                      const l = windowFill.lookup();
                      return l.state === 'unknown' ? l.error : undefined;
                    })()}
                  >
                    {(error) => <p class="field-hint">{ct('windowListFailed', { error: error() })}</p>}
                  </Show>
                </Show>
              </div>
            </div>
            <div class="field">
              <label for={f('keyname')}>{ct('keyName')}</label>
              <input
                id={f('keyname')}
                type="text"
                spellcheck={false}
                autocomplete="off"
                aria-describedby={hint('key')}
                placeholder={ct('keyNone')}
                value={form().api_key_env}
                onInput={(e) => patch({ api_key_env: e.currentTarget.value } as Partial<ProviderForm>)}
              />
            </div>
            <div class="field">
              <label for={f('key')}>{ct('keyValue')}</label>
              <input
                id={f('key')}
                type="password"
                autocomplete="off"
                aria-describedby={hint('key')}
                value={key()}
                onInput={(e) => {
                  setKey(e.currentTarget.value);
                  // A key needs a name to be stored under: suggested, in view, rather than asked for first.
                  if (e.currentTarget.value && !form().api_key_env.trim())
                    patch({ api_key_env: suggestKeyName(form()) } as Partial<ProviderForm>);
                }}
              />
            </div>
            <p class="field-hint span-2" id={hint('key')}>
              {ct('keyNameHint')}{' '}
              <Show when={form().api_key_env.trim()}>
                {keyStored()
                  ? ct('keyStored', { name: form().api_key_env.trim() })
                  : ct('keyMissing', { name: form().api_key_env.trim() })}
              </Show>
            </p>
            <div class="field span-2">
              <label for={f('route')}>{ct('route')}</label>
              <select
                id={f('route')}
                aria-describedby={hint('route')}
                value={form().route}
                onChange={(e) => patch({ route: e.currentTarget.value as Route } as Partial<ProviderForm>)}
              >
                <option value="direct">{ct('routeDirect')}</option>
                <option value="bridge">{ct('routeBridge')}</option>
              </select>
              <p class="field-hint" data-testid="route-note" id={hint('route')}>
                {routeNote()}
              </p>
            </div>
          </div>
        </section>
        <section class="model-section" aria-labelledby={f('sec-limits')}>
          <header class="model-section-head">
            <h3 id={f('sec-limits')}>{ct('sectionLimits')}</h3>
            <p class="field-hint">{ct('sectionLimitsHint')}</p>
          </header>
          <div class="form-grid">
            <div class="field">
              <label for={f('max')}>{ct('maxTokens')}</label>
              <input
                id={f('max')}
                type="text"
                inputMode="numeric"
                aria-describedby={hint('max')}
                value={form().max_tokens}
                onInput={(e) => patch({ max_tokens: e.currentTarget.value } as Partial<ProviderForm>)}
              />
              <p class="field-hint" id={hint('max')}>
                {ct('maxTokensHint')}
              </p>
            </div>
            <div class="field">
              <label for={f('reserve')}>{ct('outputReserve')}</label>
              <input
                id={f('reserve')}
                type="text"
                inputMode="numeric"
                aria-describedby={hint('reserve')}
                value={form().output_reserve}
                onInput={(e) => patch({ output_reserve: e.currentTarget.value } as Partial<ProviderForm>)}
              />
              <p class="field-hint" id={hint('reserve')}>
                {ct('outputReserveHint')}
              </p>
            </div>
            <div class="field">
              <label for={f('threshold')}>{ct('threshold')}</label>
              <input
                id={f('threshold')}
                type="text"
                inputMode="decimal"
                aria-describedby={hint('threshold')}
                value={form().threshold}
                onInput={(e) => patch({ threshold: e.currentTarget.value } as Partial<ProviderForm>)}
              />
              <p class="field-hint" id={hint('threshold')}>
                {ct('thresholdHint')}
              </p>
            </div>
          </div>
        </section>
        {/* Closed unless something in it differs from the usual (a person rarely needs it; a provider's docs say when). */}
        <details
          class="model-section model-advanced"
          open={advancedOpen()}
          onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}
        >
          <summary class="model-section-head">
            <h3 id={f('sec-advanced')}>{ct('sectionAdvanced')}</h3>
            <p class="field-hint">{ct('sectionAdvancedHint')}</p>
          </summary>
          <div class="form-grid">
            <div class="field span-2">
              <label for={f('tool-protocol')}>{ct('toolProtocol')}</label>
              <select
                id={f('tool-protocol')}
                aria-describedby={hint('tool-protocol')}
                value={form().tool_protocol}
                onChange={(e) =>
                  patch({
                    tool_protocol: e.currentTarget.value === 'json' ? 'json' : 'native',
                  } as Partial<ProviderForm>)
                }
              >
                <option value="native">{ct('toolProtocolNative')}</option>
                <option value="json">{ct('toolProtocolJson')}</option>
              </select>
              <p class="field-hint" id={hint('tool-protocol')}>
                {ct('toolProtocolHint')}
              </p>
            </div>
            <div class="field span-2">
              <label class="checkbox field-check">
                <input
                  type="checkbox"
                  aria-describedby={hint('use-max')}
                  checked={form().use_max_tokens}
                  onChange={(e) => patch({ use_max_tokens: e.currentTarget.checked } as Partial<ProviderForm>)}
                />
                <span>{ct('useMaxTokens')}</span>
              </label>
              {/* Beside the label, not in it: the box's name stays short, the help is its description. */}
              <p class="field-hint" id={hint('use-max')}>
                {ct('useMaxTokensHint')}
              </p>
            </div>
            <div class="field span-2">
              <label for={f('extra')}>{ct('extraBody')}</label>
              <textarea
                id={f('extra')}
                class="mono"
                rows={3}
                spellcheck={false}
                aria-describedby={hint('extra')}
                value={form().extra_body}
                onInput={(e) => patch({ extra_body: e.currentTarget.value } as Partial<ProviderForm>)}
              />
              <p class="field-hint" id={hint('extra')}>
                {ct('extraBodyHint')}
              </p>
            </div>
            <ProviderFilesSection
              state={s}
              id={id}
              protocol={form().protocol}
              operations={form().provider_operations}
              onOperations={(on) => patch({ provider_operations: on } as Partial<ProviderForm>)}
            />
          </div>
        </details>
        <section class="transfer-card">
          <h3 id={f('import-title')}>{ct('importConfig')}</h3>
          <p class="field-hint" id={hint('import')}>
            {ct('importConfigHint')}
          </p>
          <FilePick
            id={f('import')}
            labelledBy={f('import-title')}
            describedBy={hint('import')}
            button={ct('chooseFile')}
            none={ct('noFileChosen')}
            accept="application/json,.json"
            onFile={(file) => void importFile(file)}
          />
        </section>
        <BrowserModelSection
          state={s}
          scope={scope()}
          current={form().protocol === 'browser' ? form().model : null}
          onUsed={() => void load(scope())}
        />
        <div class="model-footer">
          <Show when={report()}>
            {(r) => (
              <div
                class={r().ok ? 'field-success' : 'field-error'}
                role={r().ok ? 'status' : 'alert'}
                data-testid="connection-report"
              >
                <p>
                  {r().ok
                    ? ct('testOk', { ms: Math.round(r().latencyMs), text: r().text ?? '' })
                    : ct('testFailed', {
                        code: r().error!.code,
                        message: errorText(r().error!, s.locale()),
                        ms: Math.round(r().latencyMs),
                      })}
                </p>
                <Show when={r().usage}>
                  {(u) => (
                    <p>{ct('testUsage', { input: u().input_tokens ?? '?', output: u().output_tokens ?? '?' })}</p>
                  )}
                </Show>
              </div>
            )}
          </Show>
          <Show when={status()}>
            {(st) => (
              <p
                class={st().ok ? 'field-success' : 'field-error'}
                role={st().ok ? 'status' : 'alert'}
                data-testid="model-status"
              >
                {st().text}
              </p>
            )}
          </Show>
          <div class="model-actions">
            <button type="button" class="button" disabled={testing()} onClick={() => void test()}>
              {testing() ? ct('testing') : ct('testConnection')}
            </button>
            <button type="submit" class="button primary">
              {ct('saveModel')}
            </button>
          </div>
        </div>
      </form>
    </Show>
  );
}
