// The per-write prompt of a plugin's fs.write: path and diff, Allow or Deny. Closing the dialog denies. The title
// names the normalised path that will be written (`"raw" → path` when the plugin sent another form), and a file the
// write policy always asks about says why.
import { Show } from 'solid-js';
import type { WriteApprovalRequest } from '../../../core/page';
import { shownWritePath } from '../../../core/contracts';
import { writeApprovalDiff } from '../../../core/page';
import { askReasonKey } from '../../chat/ask-reason-strings';
import { Dialog } from '../../components/dialog';
import type { Translate } from '../../i18n/i18n';

export function WriteApprovalDialog(props: {
  t: Translate;
  request: WriteApprovalRequest;
  onAnswer: (allow: boolean) => void;
}) {
  const t = props.t;
  let answered = false;
  const answer = (allow: boolean) => {
    if (answered) return;
    answered = true;
    props.onAnswer(allow);
  };
  const diff = () => writeApprovalDiff(props.request);
  return (
    <Dialog
      title={t('plugins.approveTitle', {
        plugin: props.request.pluginId,
        path: shownWritePath(props.request.rawPath ?? props.request.path, props.request.path),
      })}
      onClose={() => answer(false)}
      closeLabel={t('common.close')}
      wide
      footer={
        <>
          <button type="button" class="button" onClick={() => answer(false)}>
            {t('plugins.approveDeny')}
          </button>
          <button type="button" class="button primary" onClick={() => answer(true)}>
            {t('plugins.approveAllow')}
          </button>
        </>
      }
    >
      <Show when={!props.request.exists}>
        <p class="field-hint">{t('plugins.approveNew')}</p>
      </Show>
      <Show when={props.request.alwaysAsk}>
        {(ask) => (
          <p class="field-hint" data-testid="ask-reason">
            {t('write.askAlways', { reason: t(askReasonKey(ask().reason)) })}
          </p>
        )}
      </Show>
      <pre class="plugin-diff" aria-label={t('plugins.approveDiff')} data-testid="write-diff">
        {diff() || t('plugins.approveNoChange')}
      </pre>
    </Dialog>
  );
}
