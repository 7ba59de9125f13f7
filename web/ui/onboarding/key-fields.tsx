// The key of the Connect step: its name (asked only for a custom server; a preset names its own) and the key itself,
// which is stored under that name when tested or saved and never shown again ("a key is stored; leave empty to keep
// it"). A server that takes no key says so instead.
import { Show } from 'solid-js';
import { findPreset } from '../../core/page';
import type { OnboardingTranslate } from './onboarding-strings';
import type { SetupForm } from './setup-form';
import { takesKey } from './setup-steps';

export function KeyFields(props: { setup: SetupForm; t: OnboardingTranslate; f: (name: string) => string }) {
  const t = props.t;
  const f = props.f;
  const form = () => props.setup.form();
  const keyName = () => form().api_key_env.trim();
  return (
    <Show when={takesKey(form())} fallback={<p class="field-hint ob-wide">{t('ob.noKey')}</p>}>
      <Show when={!findPreset(form().preset)}>
        <div class="field">
          <label for={f('keyname')}>{t('ob.keyName')}</label>
          <input
            id={f('keyname')}
            type="text"
            spellcheck={false}
            autocomplete="off"
            value={form().api_key_env}
            onInput={(e) => props.setup.edit({ api_key_env: e.currentTarget.value.trim() })}
          />
        </div>
      </Show>
      <div class="field">
        <label for={f('key')}>{t('ob.key')}</label>
        <input
          id={f('key')}
          type="password"
          autocomplete="off"
          aria-describedby={f('key-hint')}
          disabled={!keyName()}
          value={props.setup.key()}
          onInput={(e) => props.setup.setKey(e.currentTarget.value)}
        />
        <p class="field-hint" id={f('key-hint')}>
          {keyName()
            ? t(props.setup.keyStored() && !props.setup.key() ? 'ob.keyKeep' : 'ob.keyHint', { name: keyName() })
            : ''}
        </p>
      </div>
    </Show>
  );
}
