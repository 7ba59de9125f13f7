// What the chosen server needs before the app can reach it (setup-steps.ts decides which): CORS with the app's exact
// origin, `OLLAMA_ORIGINS=… ollama serve` with a Copy button, LM Studio's "Enable CORS", the bridge, Chrome's Local
// Network Access prompt.
import { For, Show } from 'solid-js';
import type { OnboardingTranslate } from './onboarding-strings';
import type { SetupForm } from './setup-form';
import { connectionNotes } from './setup-steps';

export function ConnectionNotes(props: { setup: SetupForm; t: OnboardingTranslate }) {
  const t = props.t;
  const origin = location.origin;
  return (
    <div class="ob-notes ob-wide">
      <For each={connectionNotes(props.setup.form(), origin)}>
        {(note) => (
          <div class="ob-note">
            <p>{t(note.key, note.params)}</p>
            <Show when={note.command}>
              {(command) => (
                <div class="ob-command">
                  <code>{command()}</code>
                  <button type="button" class="button small ghost" onClick={() => void props.setup.copy(command())}>
                    {props.setup.copied() ? t('ob.copied') : t('ob.copy')}
                  </button>
                </div>
              )}
            </Show>
          </div>
        )}
      </For>
    </div>
  );
}
