// The workspace's approval mode (ask / auto / yolo) as a compact control of the composer bar. Auto and yolo are
// tinted and carry their warning as the title; yolo also gets a one-line note under the bar (composer.tsx), since
// it runs edits and plugin tools without asking.
import type { ApprovalMode } from '../../core/page';
import type { ChatTranslate } from './chat-i18n';

export function ApprovalModeControl(props: {
  mode: ApprovalMode;
  onChange: (mode: ApprovalMode) => void;
  ct: ChatTranslate;
}) {
  const ct = props.ct;
  const title = () =>
    props.mode === 'yolo' ? ct('yoloWarning') : props.mode === 'auto' ? ct('autoWarning') : ct('modeAsk');
  return (
    <select
      class="composer-chip approval-chip"
      data-mode={props.mode}
      aria-label={ct('c.approvalLabel')}
      title={title()}
      value={props.mode}
      onChange={(e) => props.onChange(e.currentTarget.value as ApprovalMode)}
    >
      <option value="ask" title={ct('modeAsk')}>
        {ct('c.modeAsk')}
      </option>
      <option value="auto" title={ct('modeAuto')}>
        {ct('c.modeAuto')}
      </option>
      <option value="yolo" title={ct('modeYolo')}>
        {ct('c.modeYolo')}
      </option>
    </select>
  );
}
