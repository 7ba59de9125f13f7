// The workspace's approval mode (ask / auto / yolo) as a segmented control of the composer bar: a radio group named
// "Approval" with one tab stop (the chosen mode) and arrow keys that move and choose, as WAI-ARIA's radio group
// pattern does. Auto and yolo are tinted when chosen and carry their warning as the title; yolo also gets a one-line
// note under the bar (composer.tsx), since it runs edits and plugin tools without asking.
import { For } from 'solid-js';
import type { ApprovalMode } from '../../core/page';
import type { ChatKey, ChatTranslate } from './chat-i18n';

const MODES: { mode: ApprovalMode; label: ChatKey; title: ChatKey }[] = [
  { mode: 'ask', label: 'c.modeAsk', title: 'modeAsk' },
  { mode: 'auto', label: 'c.modeAuto', title: 'autoWarning' },
  { mode: 'yolo', label: 'c.modeYolo', title: 'yoloWarning' },
];

export function ApprovalModeControl(props: {
  mode: ApprovalMode;
  onChange: (mode: ApprovalMode) => void;
  ct: ChatTranslate;
}) {
  const ct = props.ct;
  let group: HTMLDivElement | undefined;
  const move = (event: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    const edge = event.key === 'Home' ? 0 : event.key === 'End' ? MODES.length - 1 : undefined;
    if (step === undefined && edge === undefined) return;
    event.preventDefault();
    const at = MODES.findIndex((m) => m.mode === props.mode);
    const next = edge ?? (at + step! + MODES.length) % MODES.length;
    props.onChange(MODES[next]!.mode);
    group?.querySelectorAll<HTMLButtonElement>('[role="radio"]')[next]?.focus();
  };
  return (
    <div
      ref={(el) => (group = el)}
      class="approval-modes"
      role="radiogroup"
      aria-label={ct('c.approvalLabel')}
      data-mode={props.mode}
      onKeyDown={move}
    >
      <For each={MODES}>
        {(m) => (
          <button
            type="button"
            role="radio"
            class="approval-mode"
            data-mode={m.mode}
            aria-checked={props.mode === m.mode}
            tabIndex={props.mode === m.mode ? 0 : -1}
            title={ct(m.title)}
            onClick={() => props.mode !== m.mode && props.onChange(m.mode)}
          >
            {ct(m.label)}
          </button>
        )}
      </For>
    </div>
  );
}
