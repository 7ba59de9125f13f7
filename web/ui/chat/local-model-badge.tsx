// The in-browser model's numbers in the composer bar while it works (issue 21: "tokens/s and memory shown while it
// runs"): loading, then tokens/s and the memory estimate, from the status the model publishes on its
// BroadcastChannel (it runs in the agent Worker). Hidden when no browser model has said anything in this tab. A status
// readout that is not announced (aria-live off): it changes with every few tokens.
import { createSignal, onCleanup, Show } from 'solid-js';
import { watchStatus, type BrowserModelStatus } from '../../core/page';
import { formatBytes, type Locale } from '../i18n/i18n';
import type { ChatTranslate } from './chat-i18n';

export function LocalModelBadge(props: { ct: ChatTranslate; locale: Locale }) {
  const [status, setStatus] = createSignal<BrowserModelStatus | null>(null);
  onCleanup(watchStatus(setStatus));
  const text = () => {
    const s = status();
    if (!s) return '';
    if (s.state === 'loading') return props.ct('local.loading');
    const parts = [props.ct('local.generating', { tps: s.tokensPerSecond ? s.tokensPerSecond.toFixed(1) : '–' })];
    if (s.memoryBytes) parts.push(props.ct('local.memory', { memory: formatBytes(s.memoryBytes, props.locale) }));
    return parts.join(' · ');
  };
  return (
    <Show when={status()}>
      <span
        class="composer-local"
        role="status"
        aria-live="off"
        aria-label={props.ct('local.label', { state: text() })}
        data-state={status()!.state}
      >
        {text()}
      </span>
    </Show>
  );
}
