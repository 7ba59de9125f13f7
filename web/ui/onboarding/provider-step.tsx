// Step 1: the provider presets and a custom server as radio cards, each with its one-line description, and under
// them the offer of a model that runs in this tab (issue 21: no key, no server).
import { createSignal, For, Show } from 'solid-js';
import { findPreset, PROVIDER_PRESETS } from '../../core/page';
import type { AppState } from '../state/app-state';
import { BrowserModelSection } from '../settings/browser-model/browser-model-section';
import { browserModelText } from '../settings/browser-model/strings';
import { CUSTOM_PRESET } from '../settings/providers/provider-form';
import type { OnboardingKey, OnboardingTranslate } from './onboarding-strings';
import type { SetupForm } from './setup-form';

const CHOICES = [...PROVIDER_PRESETS.map((p) => p.id), CUSTOM_PRESET];

export function ProviderStep(props: {
  state: AppState;
  setup: SetupForm;
  t: OnboardingTranslate;
  f: (name: string) => string;
  onDone: () => void;
}) {
  const t = props.t;
  const f = props.f;
  const providerName = (choice: string) => findPreset(choice)?.label ?? t('ob.custom');
  const [browserOffer, setBrowserOffer] = createSignal(false);
  return (
    <>
      <fieldset class="ob-cards">
        <legend>{t('ob.providerLegend')}</legend>
        <For each={CHOICES}>
          {(choice) => (
            <label class="ob-card" classList={{ selected: props.setup.form().preset === choice }}>
              <input
                type="radio"
                name={f('provider')}
                value={choice}
                checked={props.setup.form().preset === choice}
                aria-label={providerName(choice)}
                aria-describedby={f(`line-${choice}`)}
                onChange={() => props.setup.choose(choice)}
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
      <details class="ob-browser-model" onToggle={(e) => setBrowserOffer(e.currentTarget.open)}>
        <summary>{browserModelText(props.state.locale)('offer')}</summary>
        {/* Rendered only when open: its fields would otherwise take the dialog's first focus. */}
        <Show when={browserOffer()}>
          <BrowserModelSection state={props.state} scope={null} current={null} onUsed={() => props.onDone()} />
        </Show>
      </details>
    </>
  );
}
