import { createUniqueId, onMount, type JSX } from 'solid-js';

// Fields typed into come first: a dialog opening with a choice (radios) above its Name field focuses the name.
const TYPED =
  'input:is([type=text], [type=search], [type=url], [type=email], [type=password], [type=number], :not([type])):not(:disabled), textarea:not(:disabled)';
const FIELD =
  'input:not([type=hidden]):not([type=file]):not([type=radio]):not(:disabled), input[type=radio]:checked:not(:disabled), select:not(:disabled), textarea:not(:disabled)';

/**
 * Where focus goes when a dialog opens: an element marked `autofocus` / `data-autofocus`, else the body's first
 * field that is typed into, else its first other field (what the person came to fill in; Enter then submits its
 * form), else the footer's first button — by convention the least committal one (Cancel, Deny), so a stray Enter
 * never deletes or allows — never ×.
 */
function initialFocus(dialog: HTMLDialogElement): HTMLElement | null {
  return (
    dialog.querySelector<HTMLElement>('[autofocus], [data-autofocus]') ??
    dialog.querySelector('.dialog-body')?.querySelector<HTMLElement>(TYPED) ??
    dialog.querySelector('.dialog-body')?.querySelector<HTMLElement>(FIELD) ??
    dialog.querySelector<HTMLElement>('.dialog-footer button:not(:disabled)') ??
    null
  );
}

// A modal on the native <dialog>: the browser traps focus, restores it on close and closes on Escape.
/** `class`: one more class on the <dialog> for a dialog with a layout of its own (Settings). */
export function Dialog(props: {
  title: string;
  onClose: () => void;
  children: JSX.Element;
  footer?: JSX.Element;
  wide?: boolean;
  class?: string;
  closeLabel: string;
}) {
  let dialog: HTMLDialogElement | undefined;
  const titleId = createUniqueId();
  onMount(() => {
    if (!dialog) return;
    dialog.showModal();
    const first = initialFocus(dialog);
    first?.focus();
    // A prefilled name is usually replaced or edited at its end: select it so typing replaces it.
    if (first instanceof HTMLInputElement && first.type === 'text') first.select();
  });
  return (
    <dialog
      ref={(el) => (dialog = el)}
      class={props.class ? `dialog ${props.class}` : 'dialog'}
      classList={{ 'dialog-wide': props.wide === true }}
      aria-labelledby={titleId}
      onClose={() => props.onClose()}
    >
      <header class="dialog-header">
        <h2 id={titleId}>{props.title}</h2>
        <button type="button" class="icon-button" aria-label={props.closeLabel} onClick={() => dialog?.close()}>
          <svg viewBox="0 0 24 24" aria-hidden="true" class="icon">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </header>
      <div class="dialog-body">{props.children}</div>
      {props.footer && <footer class="dialog-footer">{props.footer}</footer>}
    </dialog>
  );
}

export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  onConfirm: () => void | Promise<void>;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      closeLabel={props.cancelLabel}
      footer={
        <>
          <button type="button" class="button" onClick={() => props.onClose()}>
            {props.cancelLabel}
          </button>
          <button
            type="button"
            class="button"
            classList={{ danger: props.danger === true, primary: props.danger !== true }}
            onClick={async () => {
              await props.onConfirm();
              props.onClose();
            }}
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <p>{props.body}</p>
    </Dialog>
  );
}
