// A title edited in place: Enter saves, Escape cancels, leaving the field saves (as in the session lists people
// know). A refusal (e.g. a title too long) keeps the field open with the reason as its description.
import { createSignal, createUniqueId, onMount, Show } from 'solid-js';
import { messageOf } from '../state/errors';

export function InlineRename(props: {
  value: string;
  label: string;
  hint: string;
  maxLength: number;
  onSave: (title: string) => Promise<void>;
  onDone: () => void;
  class?: string;
}) {
  const [value, setValue] = createSignal(props.value);
  const [error, setError] = createSignal('');
  const hintId = createUniqueId();
  let input!: HTMLInputElement;
  let settled = false;
  onMount(() => {
    input.focus();
    input.select();
  });
  async function save() {
    if (settled) return;
    const title = value().trim();
    if (!title || title === props.value) return finish();
    settled = true;
    try {
      await props.onSave(title);
      props.onDone();
    } catch (e) {
      settled = false;
      setError(messageOf(e));
      input.focus();
    }
  }
  function finish() {
    settled = true;
    props.onDone();
  }
  return (
    <span class={`inline-rename ${props.class ?? ''}`}>
      <input
        ref={(el) => (input = el)}
        type="text"
        aria-label={props.label}
        aria-describedby={hintId}
        aria-invalid={error() ? true : undefined}
        maxLength={props.maxLength}
        value={value()}
        onInput={(e) => setValue(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.isComposing) {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            // Only this field: not the drawer or a dialog around it.
            e.preventDefault();
            e.stopPropagation();
            finish();
          }
        }}
        onBlur={() => void save()}
      />
      <span id={hintId} class="visually-hidden">
        {props.hint}
      </span>
      <Show when={error()}>
        <span class="field-error" role="alert">
          {error()}
        </span>
      </Show>
    </span>
  );
}
