// The guided first-run setup: 1 provider (provider-step.tsx: the presets as cards), 2 connect (connect-step.tsx:
// address, model, key, connection with the notes the server needs, Test connection), 3 done (done-step.tsx: saves
// globally, like Settings → Model). This file is the walk through them: the step list, the form Enter moves on in,
// Back / Next / Done, and each step's first focus. What is edited and tested lives in setup-form.ts; saving and
// testing are Settings → Model's own (provider-form.ts), so the two never store or test differently.
import { createEffect, createSignal, createUniqueId, For, on, Show } from 'solid-js';
import { chatTranslator } from '../chat/chat-i18n';
import { Dialog } from '../components/dialog';
import type { AppState } from '../state/app-state';
import { onboardingTranslator, type OnboardingKey } from './onboarding-strings';
import type { SetupStep } from './setup-steps';
import { createSetupForm } from './setup-form';
import { ProviderStep } from './provider-step';
import { ConnectStep } from './connect-step';
import { DoneStep } from './done-step';
import './onboarding.css';

export function SetupDialog(props: { state: AppState; onClose: () => void; onDone: () => void }) {
  const s = props.state;
  const t = onboardingTranslator(s.locale);
  const ct = chatTranslator(s.locale);
  const id = createUniqueId();
  const f = (name: string) => `${id}-${name}`;
  const [step, setStep] = createSignal<SetupStep>(1);
  const setup = createSetupForm(s, t);
  let formEl: HTMLFormElement | undefined;

  // Each step starts at its first field (step 3 at Done), so Enter and typing work without reaching for the mouse.
  createEffect(
    on(
      step,
      () =>
        queueMicrotask(() => {
          const first =
            formEl?.querySelector<HTMLElement>(
              'input[type=radio]:checked, input:not([type=radio]):not(:disabled), select',
            ) ?? document.getElementById(f('next'));
          first?.focus();
        }),
      { defer: true },
    ),
  );

  function next(event?: Event) {
    event?.preventDefault();
    if (setup.busy()) return;
    setup.setProblem('');
    if (step() === 1) {
      setup.openConnect();
      return setStep(2);
    }
    if (step() === 2) {
      if (setup.connectReady()) setStep(3);
      return;
    }
    void setup.save(props.onDone);
  }

  function back() {
    setup.setProblem('');
    if (step() > 1) setStep((step() - 1) as SetupStep);
  }

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
          <button type="submit" form={f('form')} id={f('next')} class="button primary" disabled={setup.busy() !== null}>
            {step() === 3 ? t('ob.done') : t('ob.next')}
          </button>
        </div>
      }
    >
      <ol class="ob-steps" aria-label={t('ob.stepOf', { n: step() })}>
        <For each={[1, 2, 3] as const}>
          {(n) => (
            <li
              classList={{ current: step() === n, past: step() > n }}
              aria-current={step() === n ? 'step' : undefined}
            >
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
          if (
            e.key === 'Enter' &&
            !e.isComposing &&
            !(e.target instanceof HTMLButtonElement) &&
            !(e.target instanceof HTMLTextAreaElement)
          )
            next(e);
        }}
      >
        <Show when={step() === 1}>
          <ProviderStep state={s} setup={setup} t={t} f={f} onDone={props.onDone} />
        </Show>
        <Show when={step() === 2}>
          <ConnectStep setup={setup} t={t} ct={ct} locale={s.locale()} f={f} />
        </Show>
        <Show when={step() === 3}>
          <DoneStep setup={setup} t={t} />
        </Show>
        <Show when={setup.problem()}>
          <p class="field-error" role="alert" data-testid="setup-problem">
            {setup.problem()}
          </p>
        </Show>
      </form>
    </Dialog>
  );
}
