// A menu button and a details popover on the HTML popover API: the browser puts them in the top layer, closes them
// on Escape or a click outside, and gives focus back to the button. The menu follows the ARIA menu-button pattern
// (arrow keys, Home/End, Tab closes); positions come from CSS anchor positioning, set through the CSSOM because the
// production CSP allows no inline style attributes.
import { createSignal, createUniqueId, For, type JSX } from 'solid-js';

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  disabled?: boolean;
}

const anchorName = (id: string) => `--anchor-${id.replace(/[^\w-]/g, '-')}`;

/** Ties a popover to its button for CSS anchor positioning (`position-area` in layout.css). */
function anchor(button: HTMLElement, popover: HTMLElement, id: string) {
  button.style.setProperty('anchor-name', anchorName(id));
  popover.style.setProperty('position-anchor', anchorName(id));
}

/**
 * Escape closes the popover and is marked handled, so page-level Escape handlers (stop the running turn, close the
 * drawer) leave it alone; focus goes back to the button.
 */
function closeOnEscape(e: KeyboardEvent, popover: HTMLElement, button: HTMLElement) {
  e.preventDefault();
  popover.hidePopover();
  button.focus();
}

function focusables(menu: HTMLElement) {
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')];
}

export function MenuButton(props: {
  label: string;
  items: MenuItem[];
  children: JSX.Element;
  class?: string;
  align?: 'start' | 'end';
  /** -1 for a row action reached by ArrowRight from its row (roving-list.ts), not by Tab. */
  tabIndex?: number;
}) {
  const id = `menu-${createUniqueId()}`;
  const [open, setOpen] = createSignal(false);
  let button!: HTMLButtonElement;
  let menu!: HTMLDivElement;
  const move = (delta: number | 'first' | 'last') => {
    const items = focusables(menu);
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      delta === 'first' ? 0 : delta === 'last' ? items.length - 1 : (at + delta + items.length) % items.length;
    items[next]?.focus();
  };
  const onMenuKey = (e: KeyboardEvent) => {
    const keys: Record<string, () => void> = {
      ArrowDown: () => move(1),
      ArrowUp: () => move(-1),
      Home: () => move('first'),
      End: () => move('last'),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]!();
    } else if (e.key === 'Tab') menu.hidePopover();
    else if (e.key === 'Escape') closeOnEscape(e, menu, button);
  };
  return (
    <>
      <button
        ref={(el) => (button = el)}
        type="button"
        class={props.class ?? 'icon-button'}
        tabIndex={props.tabIndex}
        aria-label={props.label}
        title={props.label}
        aria-haspopup="menu"
        aria-expanded={open()}
        aria-controls={id}
        popovertarget={id}
        onKeyDown={(e) => {
          // The popover's own state, not the signal: the toggle event that updates the signal comes a task later.
          if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && !menu.matches(':popover-open')) {
            e.preventDefault();
            menu.showPopover();
            if (e.key === 'ArrowUp') move('last');
          }
        }}
      >
        {props.children}
      </button>
      <div
        ref={(el) => {
          menu = el;
          queueMicrotask(() => anchor(button, menu, id));
        }}
        id={id}
        class="menu"
        classList={{ 'align-start': props.align === 'start' }}
        popover="auto"
        role="menu"
        aria-label={props.label}
        onKeyDown={onMenuKey}
        on:toggle={(e: ToggleEvent) => {
          setOpen(e.newState === 'open');
          if (e.newState === 'open') move('first');
        }}
      >
        <For each={props.items}>
          {(item) => (
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              class="menu-item"
              classList={{ danger: item.danger === true }}
              aria-disabled={item.disabled ? 'true' : undefined}
              onClick={() => {
                if (item.disabled) return;
                menu.hidePopover();
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          )}
        </For>
      </div>
    </>
  );
}

/** A button opening a small non-modal panel (role dialog) next to it, e.g. details with a few actions. */
export function PopoverButton(props: {
  label: string;
  children: JSX.Element;
  panel: (close: () => void) => JSX.Element;
  class?: string;
}) {
  const id = `popover-${createUniqueId()}`;
  const [open, setOpen] = createSignal(false);
  let button!: HTMLButtonElement;
  let panel!: HTMLDivElement;
  return (
    <>
      <button
        ref={(el) => (button = el)}
        type="button"
        class={props.class ?? 'icon-button'}
        aria-label={props.label}
        title={props.label}
        aria-haspopup="dialog"
        aria-expanded={open()}
        aria-controls={id}
        popovertarget={id}
      >
        {props.children}
      </button>
      <div
        ref={(el) => {
          panel = el;
          queueMicrotask(() => anchor(button, panel, id));
        }}
        id={id}
        class="menu popover-panel"
        popover="auto"
        role="dialog"
        aria-label={props.label}
        onKeyDown={(e) => e.key === 'Escape' && closeOnEscape(e, panel, button)}
        on:toggle={(e: ToggleEvent) => {
          setOpen(e.newState === 'open');
          // Into the panel, so a keyboard user lands on its first control (Escape closes and returns here).
          if (e.newState === 'open') panel.querySelector<HTMLElement>('button, a[href], input')?.focus();
        }}
      >
        {props.panel(() => panel.hidePopover())}
      </div>
    </>
  );
}
