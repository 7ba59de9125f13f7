// The chat's empty state before a model works: a calm invitation with "Set up a model" (or, when the saved config
// cannot be read, its code and sentence with "Fix the model settings"), the setup dialog, and after it the starter
// prompts about this workspace as chips that fill the message box.
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import type { DirEntry, ErrorData, WorkspaceFs } from '../../core/contracts';
import type { AppState } from '../state/app-state';
import { errorText } from '../chat/core-text';
import { onboardingTranslator } from './onboarding-strings';
import { SetupDialog } from './setup-dialog';
import { starterPrompts } from './setup-steps';
import './onboarding.css';

/** What the chat knows of its settings: whether a model is usable, and why not. */
export interface ModelState {
  model: unknown;
  modelError: ErrorData | null;
}

// Outside the component: saving settings re-reads the workspaces, which mounts a new chat view; the starter prompts
// promised by Done must survive that. For this page's life, an empty chat then offers them.
const [setUpHere, setSetUpHere] = createSignal(false);

export function FirstRun(props: {
  state: AppState;
  settings: ModelState | undefined;
  empty: boolean;
  fs: WorkspaceFs;
  onPrompt: (text: string) => void;
}) {
  const s = props.state;
  const t = onboardingTranslator(s.locale);
  const [open, setOpen] = createSignal(false);
  const needsSetup = () => props.settings !== undefined && !props.settings.model;
  const showStarters = () => setUpHere() && props.empty && !needsSetup();
  // Read once the chips are due: only the top level, bounded; a failure just leaves out the file prompt. A signal, not
  // a resource: a loading resource would suspend the whole lazy chat view.
  const [entries, setEntries] = createSignal<readonly DirEntry[]>([]);
  createEffect(
    on(showStarters, (due) => {
      if (due) void props.fs.list('', { maxEntries: 200, truncate: true }).then(setEntries, () => setEntries([]));
    }),
  );
  let panel: HTMLDivElement | undefined;

  function choose(text: string) {
    props.onPrompt(text);
    // The message box is the composer's: focus it so Enter sends what the chip put there.
    queueMicrotask(() => panel?.closest('.chat')?.querySelector<HTMLTextAreaElement>('.composer textarea')?.focus());
  }

  return (
    <>
      <Show when={needsSetup()}>
        <div
          class="first-run"
          classList={{ 'first-run-centred': props.empty }}
          ref={(el) => (panel = el)}
          data-testid="first-run"
        >
          <Show
            when={props.settings?.modelError}
            fallback={
              <div class="first-run-card">
                <span class="first-run-mark" aria-hidden="true">
                  <svg viewBox="0 0 24 24" class="icon">
                    <path d="M12 3v3M12 18v3M3 12h3M18 12h3M5.6 5.6l2.1 2.1M16.3 16.3l2.1 2.1M5.6 18.4l2.1-2.1M16.3 7.7l2.1-2.1" />
                  </svg>
                </span>
                <h2 class="first-run-title">{t('ob.heroTitle')}</h2>
                <p class="first-run-body">{t('ob.heroBody')}</p>
                <button type="button" class="button primary" onClick={() => setOpen(true)}>
                  {t('ob.setUp')}
                </button>
              </div>
            }
          >
            {(error) => (
              <div class="first-run-card first-run-invalid" role="alert">
                <h2 class="first-run-title">{t('ob.fixTitle')}</h2>
                <p class="first-run-error">
                  <code>{error().code}</code> {errorText(error(), s.locale())}
                </p>
                <button type="button" class="button primary" onClick={() => setOpen(true)}>
                  {t('ob.fix')}
                </button>
              </div>
            )}
          </Show>
        </div>
      </Show>
      <Show when={showStarters()}>
        <div class="first-run first-run-centred" ref={(el) => (panel = el)} data-testid="starter-prompts">
          <div class="first-run-card">
            <h2 class="first-run-title" id="starter-prompts-title">
              {t('ob.readyTitle')}
            </h2>
            <ul class="starter-chips" aria-label={t('ob.startersLabel')}>
              <For each={starterPrompts(entries())}>
                {(p) => (
                  <li>
                    <button type="button" class="starter-chip" onClick={() => choose(t(p.key, p.params))}>
                      {t(p.key, p.params)}
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </div>
        </div>
      </Show>
      <Show when={open()}>
        <SetupDialog
          state={s}
          onClose={() => setOpen(false)}
          onDone={() => {
            setSetUpHere(true);
            setOpen(false);
          }}
        />
      </Show>
    </>
  );
}
