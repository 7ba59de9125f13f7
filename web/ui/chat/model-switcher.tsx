// The model switcher of the composer bar: the configured model plus, once the menu opens, the provider's list
// (asked once per view, on demand, so opening the app sends no request). Choosing applies to the next turn.
import { createMemo, createSignal, createUniqueId, For, Show } from 'solid-js';
import type { ChatTranslate } from './chat-i18n';

export interface ModelSwitcherControl {
  open(): void;
}

export function ModelSwitcher(props: {
  /** The configured model's name; null when none is configured. */
  configured: string | null;
  /** The model the next turn uses (an override, or the configured one). */
  current: string | null;
  onChoose: (name: string | null) => void;
  listModels: () => Promise<string[]>;
  ct: ChatTranslate;
  ref?: (control: ModelSwitcherControl) => void;
}) {
  const ct = props.ct;
  const id = createUniqueId();
  const [open, setOpen] = createSignal(false);
  const [filter, setFilter] = createSignal('');
  const [listed, setListed] = createSignal<string[] | null>(null);
  const [failure, setFailure] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  const [active, setActive] = createSignal(0);
  let button: HTMLButtonElement | undefined;
  let input: HTMLInputElement | undefined;
  let root: HTMLDivElement | undefined;

  const names = createMemo(() => {
    const all = new Set<string>();
    if (props.configured) all.add(props.configured);
    if (props.current) all.add(props.current);
    for (const n of listed() ?? []) all.add(n);
    const q = filter().trim().toLowerCase();
    const list = [...all].filter((n) => !q || n.toLowerCase().includes(q));
    // A typed name that is not listed can still be chosen (a local server that lists nothing, a new model).
    if (q && !all.has(filter().trim())) list.push(filter().trim());
    return list;
  });

  async function load() {
    if (listed() !== null || loading()) return;
    setLoading(true);
    try {
      setListed(await props.listModels());
    } catch (e) {
      setFailure((e as { code?: string })?.code ?? 'E_MODELS');
      setListed([]);
    } finally {
      setLoading(false);
    }
  }
  function show() {
    setFilter('');
    setActive(Math.max(0, names().indexOf(props.current ?? '')));
    setOpen(true);
    void load();
    queueMicrotask(() => input?.focus());
  }
  function close(refocus = true) {
    setOpen(false);
    if (refocus) button?.focus();
  }
  function choose(name: string) {
    props.onChoose(name === props.configured ? null : name);
    close();
  }
  props.ref?.({ open: show });

  const onKey = (e: KeyboardEvent) => {
    const n = names().length;
    if (e.key === 'ArrowDown') setActive((a) => (n ? (a + 1) % n : 0));
    else if (e.key === 'ArrowUp') setActive((a) => (n ? (a - 1 + n) % n : 0));
    else if (e.key === 'Enter') {
      const name = names()[active()];
      if (name) choose(name);
    } else if (e.key === 'Escape') close();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  const label = () => props.current ?? props.configured ?? ct('c.modelNone');

  return (
    <div
      class="model-switcher"
      ref={(el) => (root = el)}
      onFocusOut={(e) => {
        if (open() && !root?.contains(e.relatedTarget as Node | null)) close(false);
      }}
    >
      <button
        ref={(el) => (button = el)}
        type="button"
        role="combobox"
        class="composer-chip"
        aria-label={ct('c.modelLabel')}
        aria-haspopup="listbox"
        aria-expanded={open()}
        aria-controls={`${id}-list`}
        disabled={!props.configured}
        title={label()}
        onClick={() => (open() ? close() : show())}
      >
        <span class="composer-chip-text">{label()}</span>
        <svg viewBox="0 0 24 24" aria-hidden="true" class="icon composer-chip-caret">
          <path d="M7 10l5 5 5-5" />
        </svg>
      </button>
      <Show when={open()}>
        <div class="composer-popup model-popup">
          <input
            ref={(el) => (input = el)}
            type="text"
            class="model-filter"
            aria-label={ct('c.modelFilter')}
            aria-controls={`${id}-list`}
            aria-activedescendant={names().length ? `${id}-opt-${active()}` : undefined}
            placeholder={ct('c.modelFilter')}
            value={filter()}
            onInput={(e) => {
              setFilter(e.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={onKey}
          />
          <ul id={`${id}-list`} role="listbox" aria-label={ct('c.modelLabel')} class="composer-options">
            <For each={names()}>
              {(name, i) => (
                <li
                  id={`${id}-opt-${i()}`}
                  role="option"
                  class="composer-option"
                  aria-selected={i() === active()}
                  aria-current={name === (props.current ?? props.configured) ? 'true' : undefined}
                  onPointerDown={(e) => {
                    e.preventDefault();
                    choose(name);
                  }}
                  onPointerMove={() => setActive(i())}
                >
                  <span class="composer-option-label">
                    {name === props.configured ? ct('c.modelDefault', { model: name }) : name}
                  </span>
                  <Show when={name === (props.current ?? props.configured)}>
                    <span class="composer-option-tag" aria-hidden="true">
                      ✓
                    </span>
                  </Show>
                </li>
              )}
            </For>
          </ul>
          <Show when={loading()}>
            <p class="composer-popup-empty">{ct('c.modelLoading')}</p>
          </Show>
          <Show when={failure()}>
            {(code) => <p class="composer-popup-empty">{ct('c.modelListFailed', { code: code() })}</p>}
          </Show>
        </div>
      </Show>
    </div>
  );
}
