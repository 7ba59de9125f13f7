// The Ctrl/Cmd+K command palette: one fuzzy search (fuse.js) over the workspace's sessions, the workspaces, settings
// and the commands, in a modal <dialog> (the browser traps focus, restores it on close and closes on Escape).
import Fuse from 'fuse.js';
import { createMemo, createSignal, createUniqueId, For, onMount, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';
import type { ComposerKey } from './composer-strings';
import { keyLabel } from './shortcuts-help';

export interface PaletteItem {
  id: string;
  group: 'c.groupSession' | 'c.groupWorkspace' | 'c.groupCommand';
  label: string;
  /** A shortcut shown beside it. */
  keys?: string;
  run: () => void;
}

const MAX_SHOWN = 50;

export function CommandPalette(props: { items: PaletteItem[]; ct: ChatTranslate; onClose: () => void }) {
  const ct = props.ct;
  const id = createUniqueId();
  const [query, setQuery] = createSignal('');
  const [active, setActive] = createSignal(0);
  let dialog: HTMLDialogElement | undefined;
  let input: HTMLInputElement | undefined;
  const fuse = createMemo(() => new Fuse(props.items, { keys: ['label'], threshold: 0.4, ignoreLocation: true }));
  const shown = createMemo(() =>
    query().trim()
      ? fuse()
          .search(query().trim(), { limit: MAX_SHOWN })
          .map((r) => r.item)
      : props.items.slice(0, MAX_SHOWN),
  );

  onMount(() => {
    dialog?.showModal();
    input?.focus();
  });
  function pick(item: PaletteItem | undefined) {
    if (!item) return;
    dialog?.close();
    item.run();
  }
  const onKey = (e: KeyboardEvent) => {
    const n = shown().length;
    if (e.key === 'ArrowDown') setActive((a) => (n ? (a + 1) % n : 0));
    else if (e.key === 'ArrowUp') setActive((a) => (n ? (a - 1 + n) % n : 0));
    else if (e.key === 'Enter' && !e.isComposing) pick(shown()[active()]);
    else return;
    e.preventDefault();
  };

  return (
    <dialog
      ref={(el) => (dialog = el)}
      class="dialog palette"
      aria-label={ct('c.palette')}
      onClose={() => props.onClose()}
      onClick={(e) => {
        // A click on the backdrop (the dialog element itself, outside its content) closes it.
        if (e.target === dialog) dialog?.close();
      }}
    >
      <div class="palette-body">
        <input
          ref={(el) => (input = el)}
          type="text"
          role="combobox"
          class="palette-input"
          aria-label={ct('c.paletteSearch')}
          placeholder={ct('c.palettePlaceholder')}
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-activedescendant={shown().length ? `${id}-${active()}` : undefined}
          autocomplete="off"
          value={query()}
          onInput={(e) => {
            setQuery(e.currentTarget.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        <ul id={`${id}-list`} role="listbox" aria-label={ct('c.palette')} class="palette-list">
          <For each={shown()}>
            {(item, i) => (
              <li
                id={`${id}-${i()}`}
                role="option"
                aria-selected={i() === active()}
                class="composer-option"
                onClick={() => pick(item)}
                onPointerMove={() => setActive(i())}
              >
                <span class="composer-option-label">{item.label}</span>
                <span class="composer-option-tag">
                  {item.keys ? keyLabel(item.keys) : ct(item.group as ComposerKey)}
                </span>
              </li>
            )}
          </For>
        </ul>
        <Show when={shown().length === 0}>
          <p class="composer-popup-empty">{ct('c.paletteEmpty')}</p>
        </Show>
      </div>
    </dialog>
  );
}
