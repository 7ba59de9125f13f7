// Step 2: where the server is and what to ask it for — address, model (with the server's own names as suggestions),
// context window, protocol for a custom server, the key, the route — then what the server needs (connection notes)
// and Test connection with its report.
import { For, Show } from 'solid-js';
import { findPreset, type ConnectionReport, type Route } from '../../core/page';
import type { ChatTranslate } from '../chat/chat-i18n';
import { errorText } from '../chat/core-text';
import type { Locale } from '../i18n/i18n';
import { ConnectionNotes } from './connection-notes';
import { KeyFields } from './key-fields';
import type { OnboardingTranslate } from './onboarding-strings';
import type { SetupForm } from './setup-form';

const PROTOCOLS = ['openai', 'responses', 'anthropic', 'deepseek'] as const;

export function ConnectStep(props: {
  setup: SetupForm;
  t: OnboardingTranslate;
  ct: ChatTranslate;
  locale: Locale;
  f: (name: string) => string;
}) {
  const t = props.t;
  const ct = props.ct;
  const f = props.f;
  const setup = props.setup;
  const windowUnknown = () => !setup.form().context_window.trim() && setup.window.lookup().state === 'unknown';
  /** Where the window came from, or why it is asked for (Settings → Model's sentences). */
  const windowSource = () => {
    const o = setup.window.origin();
    const l = setup.window.lookup();
    if (setup.form().context_window.trim() && o?.kind === 'preset')
      return ct('windowFromPreset', { source: o.source, date: o.as_of });
    if (setup.form().context_window.trim() && o?.kind === 'server')
      return ct('windowFromServer', { field: o.field, from: o.from });
    if (l.state === 'looking') return ct('windowLooking');
    if (windowUnknown() && l.state === 'unknown')
      return l.reason === 'no-list' ? ct('windowRequiredCustom') : ct('windowRequired');
    return '';
  };
  const form = () => setup.form();
  const reportLine = (r: ConnectionReport) =>
    r.ok
      ? ct('testOk', { ms: Math.round(r.latencyMs), text: r.text ?? '' })
      : ct('testFailed', {
          code: r.error!.code,
          message: errorText(r.error!, props.locale),
          ms: Math.round(r.latencyMs),
        });
  return (
    <div class="ob-fields">
      <div class="field ob-wide">
        <label for={f('base')}>{t('ob.baseUrl')}</label>
        <input
          id={f('base')}
          type="text"
          inputMode="url"
          required
          spellcheck={false}
          placeholder="http://127.0.0.1:8080/v1"
          value={form().base_url}
          onInput={(e) => setup.edit({ base_url: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={f('model')}>{t('ob.model')}</label>
        <input
          id={f('model')}
          type="text"
          required
          spellcheck={false}
          autocomplete="off"
          aria-describedby={f('model-hint')}
          list={f('models')}
          value={form().model}
          onInput={(e) => setup.edit({ model: e.currentTarget.value })}
        />
        <datalist id={f('models')}>
          <For each={setup.models()}>{(name) => <option value={name} />}</For>
        </datalist>
        <p class="field-hint" id={f('model-hint')}>
          {t('ob.modelHint')}
        </p>
      </div>
      <div class="field">
        <label for={f('window')}>{t('ob.window')}</label>
        <input
          id={f('window')}
          type="text"
          inputMode="numeric"
          required={windowUnknown()}
          aria-describedby={`${f('window-hint')} ${f('window-source')}`}
          value={form().context_window}
          onInput={(e) => {
            setup.edit({ context_window: e.currentTarget.value.trim() });
            setup.window.typed(e.currentTarget.value);
          }}
        />
        <p class="field-hint" id={f('window-hint')}>
          {t('ob.windowHint')}
        </p>
        <p class="field-hint" id={f('window-source')} aria-live="polite">
          {windowSource()}
        </p>
      </div>
      <Show when={!findPreset(form().preset)}>
        <div class="field">
          <label for={f('protocol')}>{t('ob.protocol')}</label>
          <select
            id={f('protocol')}
            value={form().protocol}
            onChange={(e) => setup.edit({ protocol: e.currentTarget.value })}
          >
            <For each={PROTOCOLS}>{(p) => <option value={p}>{t(`ob.protocol.${p}`)}</option>}</For>
          </select>
        </div>
      </Show>
      <KeyFields setup={setup} t={t} f={f} />
      <div class="field">
        <label for={f('route')}>{t('ob.route')}</label>
        <select
          id={f('route')}
          value={form().route}
          onChange={(e) => setup.edit({ route: e.currentTarget.value as Route })}
        >
          <option value="direct">{t('ob.routeDirect')}</option>
          <option value="bridge">{t('ob.routeBridge')}</option>
        </select>
      </div>
      <ConnectionNotes setup={setup} t={t} />
      <div class="ob-test ob-wide">
        <button type="button" class="button" disabled={setup.busy() !== null} onClick={() => void setup.test()}>
          {setup.busy() === 'test' ? t('ob.testing') : t('ob.test')}
        </button>
        <Show when={setup.report()}>
          {(r) => (
            <p
              class={r().ok ? 'field-success' : 'field-error'}
              role={r().ok ? 'status' : 'alert'}
              data-testid="setup-connection-report"
            >
              {reportLine(r())}
            </p>
          )}
        </Show>
      </div>
    </div>
  );
}
