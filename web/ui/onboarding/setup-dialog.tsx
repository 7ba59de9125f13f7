// The guided first-run setup: 1 provider (the presets as cards), 2 connect (address, model, key, connection with
// the notes the server needs, Test connection), 3 done (saves globally, like Settings → Model). Saving and testing
// are Settings → Model's own (provider-form.ts), so the two never store or test differently.
import { createEffect, createSignal, createUniqueId, For, on, Show } from 'solid-js';
import { findPreset, getSecret, listProviderModels, PROVIDER_PRESETS, type ConnectionReport, type Route } from '../../core';
import { pairedBridge } from '../../core/app-agent/bridge-endpoint';
import { checkModelConfig } from '../../core/app-agent/agent-settings';
import { chatTranslator } from '../chat/chat-i18n';
import { errorText } from '../chat/core-text';
import { Dialog } from '../components/dialog';
import { codeOf, messageOf } from '../state/errors';
import type { AppState } from '../state/app-state';
import { configFromForm, CUSTOM_PRESET, saveModelForm, testModelForm, type ProviderForm } from '../settings/providers/provider-form';
import { onboardingTranslator, type OnboardingKey } from './onboarding-strings';
import { connectionNotes, formForChoice, takesKey, type SetupStep } from './setup-steps';
import './onboarding.css';
import { BrowserModelSection } from '../settings/browser-model/browser-model-section';
import { browserModelText } from '../settings/browser-model/strings';

const PROTOCOLS = ['openai', 'responses', 'anthropic', 'deepseek'] as const;
const CHOICES = [...PROVIDER_PRESETS.map((p) => p.id), CUSTOM_PRESET];

export function SetupDialog(props: { state: AppState; onClose: () => void; onDone: () => void }) {
  const s = props.state;
  const t = onboardingTranslator(s.locale);
  const ct = chatTranslator(s.locale);
  const id = createUniqueId();
  const f = (name: string) => `${id}-${name}`;
  const origin = location.origin;
  const [step, setStep] = createSignal<SetupStep>(1);
  const [form, setForm] = createSignal<ProviderForm>(formForChoice(PROVIDER_PRESETS[0]!.id));
  const [key, setKey] = createSignal('');
  const [report, setReport] = createSignal<ConnectionReport | null>(null);
  const [problem, setProblem] = createSignal('');
  const [busy, setBusy] = createSignal<'test' | 'save' | null>(null);
  const [copied, setCopied] = createSignal(false);
  // A plain signal, not a resource: reading a loading resource would suspend the lazy chat view around this dialog.
  const [keyStored, setKeyStored] = createSignal(false);
  const recheckKey = async () => {
    const name = form().api_key_env.trim();
    const stored = name ? (await getSecret(s.db, name)) !== undefined : false;
    if (name === form().api_key_env.trim()) setKeyStored(stored);
  };
  createEffect(on(() => form().api_key_env, () => void recheckKey()));
  let formEl: HTMLFormElement | undefined;

  // The server's own model names (GET {base}/models), offered as suggestions for the Model field: asked for when a
  // local server's step opens (no key needed) and after a test succeeds. Silent on failure: Test connection is the
  // place that explains errors.
  const [models, setModels] = createSignal<readonly string[]>([]);
  let listing = 0;
  async function findModels() {
    const ticket = ++listing;
    const current = form();
    try {
      // A placeholder model only to pass the config check: the list request does not name one.
      const config = checkModelConfig(configFromForm({ ...current, model: current.model.trim() || 'x' }));
      const names = await listProviderModels({ config, getKey: (name) => getSecret(s.db, name), getBridge: () => pairedBridge(s.db) });
      if (ticket !== listing) return;
      setModels(names);
      if (!form().model.trim() && names[0]) setForm((cur) => ({ ...cur, model: names[0]! }));
    } catch {
      if (ticket === listing) setModels([]);
    }
  }

  const preset = () => findPreset(form().preset);
  const providerName = (choice: string) => findPreset(choice)?.label ?? t('ob.custom');
  const edit = (patch: Partial<ProviderForm>) => {
    setForm((cur) => ({ ...cur, ...patch }));
    setReport(null);
  };
  const [browserOffer, setBrowserOffer] = createSignal(false);
  const failure = (error: unknown) => setProblem(`${codeOf(error) ?? 'E_CONFIG_INVALID'}: ${messageOf(error)}`);

  // Each step starts at its first field (step 3 at Done), so Enter and typing work without reaching for the mouse.
  createEffect(
    on(
      step,
      () =>
        queueMicrotask(() => {
          const first = formEl?.querySelector<HTMLElement>('input[type=radio]:checked, input:not([type=radio]):not(:disabled), select') ?? document.getElementById(f('next'));
          first?.focus();
        }),
      { defer: true },
    ),
  );

  async function test() {
    setProblem('');
    setReport(null);
    setBusy('test');
    try {
      const typed = Boolean(form().api_key_env.trim() && key());
      const result = await testModelForm(s.db, form(), key());
      setReport(result);
      if (result.ok) void findModels();
      // Stored under its name by the test: the field empties and the key is never shown again.
      if (typed) {
        setKey('');
        await recheckKey();
      }
    } catch (error) {
      failure(error);
    } finally {
      setBusy(null);
    }
  }

  async function finish() {
    setProblem('');
    setBusy('save');
    try {
      await saveModelForm(s.db, null, form(), key());
      setKey('');
      s.settingsChanged();
      props.onDone();
    } catch (error) {
      failure(error);
      setBusy(null);
    }
  }

  function next(event?: Event) {
    event?.preventDefault();
    if (busy()) return;
    setProblem('');
    if (step() === 1) {
      setModels([]);
      if (!takesKey(form())) void findModels();
      return setStep(2);
    }
    if (step() === 2) {
      try {
        configFromForm(form());
        // The default profile meters the context budget and compacts, so a turn needs the model's window (seed 003):
        // asked here rather than refused at the first message.
        if (!form().context_window.trim()) return setProblem(`E_CONFIG_BUDGET_WINDOW: ${t('ob.windowMissing')}`);
        setStep(3);
      } catch (error) {
        failure(error);
      }
      return;
    }
    void finish();
  }

  function back() {
    setProblem('');
    if (step() > 1) setStep((step() - 1) as SetupStep);
  }

  async function copy(text: string) {
    await navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }

  const reportLine = (r: ConnectionReport) =>
    r.ok ? ct('testOk', { ms: Math.round(r.latencyMs), text: r.text ?? '' }) : ct('testFailed', { code: r.error!.code, message: errorText(r.error!, s.locale()), ms: Math.round(r.latencyMs) });

  return (
    <Dialog
      title={t('ob.dialogTitle')}
      wide
      closeLabel={t('ob.close')}
      onClose={props.onClose}
      footer={
        <div class="ob-footer">
          <span class="ob-progress">{t('ob.stepOf', { n: step() })}</span>
          <Show when={step() > 1}>
            <button type="button" class="button" onClick={back}>
              {t('ob.back')}
            </button>
          </Show>
          <button type="submit" form={f('form')} id={f('next')} class="button primary" disabled={busy() !== null}>
            {step() === 3 ? t('ob.done') : t('ob.next')}
          </button>
        </div>
      }
    >
      <ol class="ob-steps" aria-label={t('ob.stepOf', { n: step() })}>
        <For each={[1, 2, 3] as const}>
          {(n) => (
            <li classList={{ current: step() === n, past: step() > n }} aria-current={step() === n ? 'step' : undefined}>
              <span class="ob-step-dot" aria-hidden="true">
                {n}
              </span>
              {t(`ob.step${n}` as OnboardingKey)}
            </li>
          )}
        </For>
      </ol>
      <form
        id={f('form')}
        ref={(el) => (formEl = el)}
        class="ob-form"
        noValidate
        onSubmit={next}
        // Enter moves on from any field (radios included), not only from text boxes as browsers do by default.
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.isComposing && !(e.target instanceof HTMLButtonElement) && !(e.target instanceof HTMLTextAreaElement)) next(e);
        }}
      >
        <Show when={step() === 1}>
          <fieldset class="ob-cards">
            <legend>{t('ob.providerLegend')}</legend>
            <For each={CHOICES}>
              {(choice) => (
                <label class="ob-card" classList={{ selected: form().preset === choice }}>
                  <input
                    type="radio"
                    name={f('provider')}
                    value={choice}
                    checked={form().preset === choice}
                    aria-label={providerName(choice)}
                    aria-describedby={f(`line-${choice}`)}
                    onChange={() => {
                      setForm((cur) => formForChoice(choice, cur));
                      setReport(null);
                    }}
                  />
                  <span class="ob-card-text">
                    <span class="ob-card-title">{providerName(choice)}</span>
                    <span class="ob-card-line" id={f(`line-${choice}`)}>
                      {t(`ob.line.${choice}` as OnboardingKey)}
                    </span>
                  </span>
                </label>
              )}
            </For>
          </fieldset>
          {/* Issue 21: next to the cloud presets, a model that runs in this tab (no key, no server). */}
          <details class="ob-browser-model" onToggle={(e) => setBrowserOffer(e.currentTarget.open)}>
            <summary>{browserModelText(s.locale)('offer')}</summary>
            {/* Rendered only when open: its fields would otherwise take the dialog's first focus. */}
            <Show when={browserOffer()}>
              <BrowserModelSection state={s} scope={null} current={null} onUsed={() => props.onDone()} />
            </Show>
          </details>
        </Show>

        <Show when={step() === 2}>
          <div class="ob-fields">
            <div class="field ob-wide">
              <label for={f('base')}>{t('ob.baseUrl')}</label>
              <input id={f('base')} type="text" inputMode="url" required spellcheck={false} placeholder="http://127.0.0.1:8080/v1" value={form().base_url} onInput={(e) => edit({ base_url: e.currentTarget.value })} />
            </div>
            <div class="field">
              <label for={f('model')}>{t('ob.model')}</label>
              <input id={f('model')} type="text" required spellcheck={false} autocomplete="off" aria-describedby={f('model-hint')} list={f('models')} value={form().model} onInput={(e) => edit({ model: e.currentTarget.value })} />
              <datalist id={f('models')}>
                <For each={models()}>{(name) => <option value={name} />}</For>
              </datalist>
              <p class="field-hint" id={f('model-hint')}>
                {t('ob.modelHint')}
              </p>
            </div>
            <div class="field">
              <label for={f('window')}>{t('ob.window')}</label>
              <input id={f('window')} type="text" inputMode="numeric" required placeholder="128000" aria-describedby={f('window-hint')} value={form().context_window} onInput={(e) => edit({ context_window: e.currentTarget.value.trim() })} />
              <p class="field-hint" id={f('window-hint')}>
                {t('ob.windowHint')}
              </p>
            </div>
            <Show when={!preset()}>
              <div class="field">
                <label for={f('protocol')}>{t('ob.protocol')}</label>
                <select id={f('protocol')} value={form().protocol} onChange={(e) => edit({ protocol: e.currentTarget.value })}>
                  <For each={PROTOCOLS}>{(p) => <option value={p}>{t(`ob.protocol.${p}`)}</option>}</For>
                </select>
              </div>
            </Show>
            <Show when={takesKey(form())} fallback={<p class="field-hint ob-wide">{t('ob.noKey')}</p>}>
              <Show when={!preset()}>
                <div class="field">
                  <label for={f('keyname')}>{t('ob.keyName')}</label>
                  <input id={f('keyname')} type="text" spellcheck={false} autocomplete="off" value={form().api_key_env} onInput={(e) => edit({ api_key_env: e.currentTarget.value.trim() })} />
                </div>
              </Show>
              <div class="field">
                <label for={f('key')}>{t('ob.key')}</label>
                <input id={f('key')} type="password" autocomplete="off" aria-describedby={f('key-hint')} disabled={!form().api_key_env.trim()} value={key()} onInput={(e) => setKey(e.currentTarget.value)} />
                <p class="field-hint" id={f('key-hint')}>
                  {form().api_key_env.trim() ? t(keyStored() && !key() ? 'ob.keyKeep' : 'ob.keyHint', { name: form().api_key_env.trim() }) : ''}
                </p>
              </div>
            </Show>
            <div class="field">
              <label for={f('route')}>{t('ob.route')}</label>
              <select id={f('route')} value={form().route} onChange={(e) => edit({ route: e.currentTarget.value as Route })}>
                <option value="direct">{t('ob.routeDirect')}</option>
                <option value="bridge">{t('ob.routeBridge')}</option>
              </select>
            </div>
            <div class="ob-notes ob-wide">
              <For each={connectionNotes(form(), origin)}>
                {(note) => (
                  <div class="ob-note">
                    <p>{t(note.key, note.params)}</p>
                    <Show when={note.command}>
                      {(command) => (
                        <div class="ob-command">
                          <code>{command()}</code>
                          <button type="button" class="button small ghost" onClick={() => void copy(command())}>
                            {copied() ? t('ob.copied') : t('ob.copy')}
                          </button>
                        </div>
                      )}
                    </Show>
                  </div>
                )}
              </For>
            </div>
            <div class="ob-test ob-wide">
              <button type="button" class="button" disabled={busy() !== null} onClick={() => void test()}>
                {busy() === 'test' ? t('ob.testing') : t('ob.test')}
              </button>
              <Show when={report()}>
                {(r) => (
                  <p class={r().ok ? 'field-success' : 'field-error'} role={r().ok ? 'status' : 'alert'} data-testid="setup-connection-report">
                    {reportLine(r())}
                  </p>
                )}
              </Show>
            </div>
          </div>
        </Show>

        <Show when={step() === 3}>
          <div class="ob-summary">
            <p class="ob-summary-title">{t('ob.summary', { model: form().model.trim(), address: form().base_url.trim() })}</p>
            <p classList={{ 'field-success': report()?.ok === true, 'field-hint': report()?.ok !== true }}>
              {report() ? (report()!.ok ? t('ob.summaryTested', { ms: Math.round(report()!.latencyMs) }) : t('ob.summaryFailed', { code: report()!.error!.code })) : t('ob.summaryUntested')}
            </p>
            <p class="field-hint">{t('ob.summaryScope')}</p>
          </div>
        </Show>

        <Show when={problem()}>
          <p class="field-error" role="alert" data-testid="setup-problem">
            {problem()}
          </p>
        </Show>
      </form>
    </Dialog>
  );
}
