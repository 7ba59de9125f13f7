// The listbox the composer opens above the message box (slash commands, the @ file picker). Focus stays in the
// textarea, which points at the active option with aria-activedescendant (the ARIA combobox pattern), so typing
// keeps filtering while the arrow keys move and Enter picks. Options are picked on pointerdown, before the textarea
// would lose focus.
import { createEffect, For, Show, type JSX } from 'solid-js';

export interface ListOption {
  key: string;
  label: string;
  detail?: string;
  /** Shown as a quiet second column (e.g. "Skill"). */
  tag?: string;
}

export function optionId(listId: string, index: number): string {
  return `${listId}-opt-${index}`;
}

export function ComposerListbox(props: {
  id: string;
  label: string;
  options: ListOption[];
  active: number;
  onPick: (index: number) => void;
  onHover: (index: number) => void;
  /** Shown when there are no options (loading, nothing matches). */
  empty?: string;
  footer?: JSX.Element;
}) {
  let list: HTMLUListElement | undefined;
  createEffect(() => {
    const el = list?.querySelector<HTMLElement>(`#${CSS.escape(optionId(props.id, props.active))}`);
    el?.scrollIntoView({ block: 'nearest' });
  });
  return (
    <div class="composer-popup">
      <ul ref={(el) => (list = el)} id={props.id} role="listbox" aria-label={props.label} class="composer-options">
        <For each={props.options}>
          {(option, i) => (
            <li
              id={optionId(props.id, i())}
              role="option"
              aria-selected={i() === props.active}
              class="composer-option"
              onPointerDown={(e) => {
                e.preventDefault();
                props.onPick(i());
              }}
              onPointerMove={() => props.onHover(i())}
            >
              <span class="composer-option-label">{option.label}</span>
              <Show when={option.detail}>
                <span class="composer-option-detail">{option.detail}</span>
              </Show>
              <Show when={option.tag}>
                <span class="composer-option-tag">{option.tag}</span>
              </Show>
            </li>
          )}
        </For>
      </ul>
      <Show when={props.options.length === 0 && props.empty}>
        <p class="composer-popup-empty">{props.empty}</p>
      </Show>
      {props.footer}
    </div>
  );
}
