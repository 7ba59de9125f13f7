import { For, Show, type Accessor } from 'solid-js';
import type { AppState } from '../state/app-state';

export function Notices(props: {
  state: AppState;
  updateReady: Accessor<boolean>;
  onUpdate: () => void;
  onLater: () => void;
}) {
  const t = props.state.t;
  return (
    <div class="notices" aria-live="polite">
      <Show when={props.updateReady()}>
        <div class="notice update" role="status">
          <span>{t('update.available')}</span>
          <button type="button" class="button primary small" onClick={() => props.onUpdate()}>
            {t('update.reload')}
          </button>
          <button type="button" class="button ghost small" onClick={() => props.onLater()}>
            {t('update.later')}
          </button>
        </div>
      </Show>
      <For each={props.state.notices()}>
        {(n) => (
          <div class="notice" classList={{ error: n.kind === 'error' }} role={n.kind === 'error' ? 'alert' : 'status'}>
            <span>{n.text}</span>
            <button
              type="button"
              class="icon-button"
              aria-label={t('common.close')}
              onClick={() => props.state.dismiss(n.id)}
            >
              <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
        )}
      </For>
    </div>
  );
}
