// The composer's keys that work anywhere in the page: Ctrl/Cmd+K opens the command palette, Esc stops a running turn.
// Neither acts over another dialog (settings, a confirmation): one modal at a time. The message box handles its own
// keys (composer.tsx).
import { onCleanup, onMount } from 'solid-js';
import { isMac } from './shortcuts-help';

export function usePageShortcuts(args: {
  openPalette: () => void;
  busy: () => boolean;
  stop: () => void;
  box: () => HTMLElement | undefined;
}): void {
  onMount(() => {
    const onKey = (e: KeyboardEvent) => {
      // By key code, so Ctrl/Cmd+K works on any keyboard layout (a Chinese IME, AZERTY).
      if (
        e.code === 'KeyK' &&
        (isMac ? e.metaKey : e.ctrlKey) &&
        !e.shiftKey &&
        !e.altKey &&
        !document.querySelector('dialog[open]')
      ) {
        e.preventDefault();
        args.openPalette();
        return;
      }
      // Esc stops a running turn from anywhere in the page, unless a dialog has it (the textarea handles its own).
      if (e.key !== 'Escape' || e.defaultPrevented || !args.busy()) return;
      if (document.querySelector('dialog[open]') || e.target === args.box()) return;
      args.stop();
    };
    window.addEventListener('keydown', onKey);
    onCleanup(() => window.removeEventListener('keydown', onKey));
  });
}
