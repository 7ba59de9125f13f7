// The workspace's approval mode (ask / auto / yolo), with the warning that auto and yolo deserve.
import { createUniqueId, Show } from 'solid-js';
import type { ApprovalMode } from '../../core/app-agent';
import type { ChatTranslate } from './chat-i18n';

export function ApprovalModeBar(props: { mode: ApprovalMode; onChange: (mode: ApprovalMode) => void; ct: ChatTranslate }) {
  const id = createUniqueId();
  const ct = props.ct;
  return (
    <div class="approval-mode" classList={{ yolo: props.mode === 'yolo' }}>
      <label for={id}>{ct('approvalMode')}</label>
      <select id={id} value={props.mode} onChange={(e) => props.onChange(e.currentTarget.value as ApprovalMode)}>
        <option value="ask">{ct('modeAsk')}</option>
        <option value="auto">{ct('modeAuto')}</option>
        <option value="yolo">{ct('modeYolo')}</option>
      </select>
      <Show when={props.mode !== 'ask'}>
        <p class="approval-warning" role="note">
          {props.mode === 'yolo' ? ct('yoloWarning') : ct('autoWarning')}
        </p>
      </Show>
    </div>
  );
}

