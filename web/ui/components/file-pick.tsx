// A file input as a person expects it: a button in the app's language and style (the native control's "Choose File"
// follows the browser's language and looks like no other control here) and the chosen file's name beside it. The
// input stays in the page, visually hidden, with the accessible name the field had, so keyboards, screen readers
// and tests reach it as before.
import { createSignal } from 'solid-js';
import './file-pick.css';

export function FilePick(props: {
  id?: string;
  /** The input's accessible name, when no visible element names it. */
  label?: string;
  /** The id of the visible element that names it (a heading or label). */
  labelledBy?: string;
  describedBy?: string;
  button: string;
  /** Shown before a file is chosen. */
  none: string;
  accept: string;
  disabled?: boolean;
  onFile: (file: File) => void;
}) {
  const [name, setName] = createSignal('');
  return (
    <div class="file-pick">
      <label class="button small" classList={{ disabled: props.disabled }}>
        {props.button}
        <input
          id={props.id}
          type="file"
          class="visually-hidden"
          accept={props.accept}
          disabled={props.disabled}
          aria-label={props.labelledBy ? undefined : props.label}
          aria-labelledby={props.labelledBy}
          aria-describedby={props.describedBy}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (!file) return;
            setName(file.name);
            props.onFile(file);
          }}
        />
      </label>
      <span class="meta-text">{name() || props.none}</span>
    </div>
  );
}
