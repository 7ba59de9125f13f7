// A button that copies text to the clipboard and says so for a moment. The name stays what it does ("Copy",
// "Copy code") until it is pressed; then "Copied" (also announced, the button being the focused element).
import { createSignal, onCleanup, Show } from 'solid-js';
import { CheckIcon, CopyIcon } from './message-icons';

export function CopyButton(props: {
  text: () => string;
  label: string;
  copied: string;
  failed: string;
  class: string;
  showLabel?: boolean;
}) {
  const [state, setState] = createSignal<'idle' | 'copied' | 'failed'>('idle');
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.text());
      setState('copied');
    } catch {
      setState('failed');
    }
    clearTimeout(timer);
    timer = setTimeout(() => setState('idle'), 1600);
  }
  const name = () => (state() === 'copied' ? props.copied : props.label);
  return (
    <button
      type="button"
      class={props.class}
      aria-label={props.showLabel ? undefined : name()}
      title={state() === 'failed' ? props.failed : name()}
      data-state={state()}
      onClick={() => void copy()}
    >
      <Show when={state() === 'copied'} fallback={<CopyIcon />}>
        <CheckIcon />
      </Show>
      <Show when={props.showLabel}>
        <span>{name()}</span>
      </Show>
    </button>
  );
}
