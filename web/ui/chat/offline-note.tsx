// A calm line above the composer while the browser is offline: the conversation can be read and a message
// written, but sending waits for the connection (the composer refuses the send itself and keeps the draft).
import { createSignal, onCleanup, Show } from 'solid-js';
import { OfflineIcon } from '../components/layout-icons';
import type { Translate } from '../i18n/i18n';

export function OfflineNote(props: { t: Translate }) {
  const [offline, setOffline] = createSignal(!navigator.onLine);
  const update = () => setOffline(!navigator.onLine);
  window.addEventListener('online', update);
  window.addEventListener('offline', update);
  onCleanup(() => {
    window.removeEventListener('online', update);
    window.removeEventListener('offline', update);
  });
  return (
    <Show when={offline()}>
      <p class="offline-note" role="status">
        <OfflineIcon />
        {props.t('layout.offline')}
      </p>
    </Show>
  );
}
