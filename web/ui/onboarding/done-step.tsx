// Step 3: what Done will save — the model and address, whether the connection was tested (and how it went), and
// that the choice applies to every workspace.
import type { OnboardingTranslate } from './onboarding-strings';
import type { SetupForm } from './setup-form';

export function DoneStep(props: { setup: SetupForm; t: OnboardingTranslate }) {
  const t = props.t;
  const form = () => props.setup.form();
  const report = () => props.setup.report();
  return (
    <div class="ob-summary">
      <p class="ob-summary-title">{t('ob.summary', { model: form().model.trim(), address: form().base_url.trim() })}</p>
      <p classList={{ 'field-success': report()?.ok === true, 'field-hint': report()?.ok !== true }}>
        {report()
          ? report()!.ok
            ? t('ob.summaryTested', { ms: Math.round(report()!.latencyMs) })
            : t('ob.summaryFailed', { code: report()!.error!.code })
          : t('ob.summaryUntested')}
      </p>
      <p class="field-hint">{t('ob.summaryScope')}</p>
    </div>
  );
}
