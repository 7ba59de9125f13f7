// The bar under the message box, left to right as the person reads it: the model, the approval mode, the context
// meter, the in-browser model's badge, the slash hint, and Send (Stop while a turn runs).
import { Show } from 'solid-js';
import type { ApprovalMode } from '../../core/page';
import { ApprovalModeControl } from './approval-mode';
import type { ChatTranslate } from './chat-i18n';
import type { ChatController } from './chat-controller';
import { ContextMeter, type ContextMeterControl } from './context-meter';
import type { NumberLocale } from './meter-format';
import { LocalModelBadge } from './local-model-badge';
import { ModelSwitcher, type ModelSwitcherControl } from './model-switcher';

export function ComposerBar(props: {
  chat: ChatController;
  /** The model the settings name (null: none configured). */
  configured: string | null;
  mode: ApprovalMode;
  onSetMode: (mode: ApprovalMode) => void;
  canSend: boolean;
  locale: NumberLocale;
  ct: ChatTranslate;
  modelRef: (control: ModelSwitcherControl) => void;
  meterRef: (control: ContextMeterControl) => void;
}) {
  const ct = props.ct;
  return (
    <div class="composer-bar">
      <ModelSwitcher
        configured={props.configured}
        current={props.chat.model()}
        onChoose={(name) => props.chat.setModel(name)}
        listModels={() => props.chat.listModels()}
        ct={ct}
        ref={props.modelRef}
      />
      <ApprovalModeControl mode={props.mode} onChange={props.onSetMode} ct={ct} />
      <ContextMeter chat={props.chat} ct={ct} locale={props.locale} ref={props.meterRef} />
      <LocalModelBadge ct={ct} locale={props.locale} />
      <span class="composer-hint">{ct('c.slashHint')}</span>
      <Show
        when={props.chat.busy()}
        fallback={
          <button type="submit" class="button primary composer-send" disabled={!props.canSend}>
            {ct('send')}
          </button>
        }
      >
        <button type="button" class="button danger composer-send" onClick={() => props.chat.stop()}>
          {ct('stop')}
        </button>
      </Show>
    </div>
  );
}
