// App-level actions, callable from anywhere (the sidebar, the top bar, keyboard shortcuts, the composer's command
// palette and slash commands) so every way in does the same thing. The shell binds them to its state on mount.
import { tinykeys } from 'tinykeys';
import type { AppState } from './app-state';
import { layoutState } from './layout-state';

interface Binding {
  state: AppState;
  openSettings(): void;
  newWorkspace(): void;
}

let bound: Binding | null = null;

/** Called by the shell; returns the unbind for its cleanup. */
export function bindAppActions(binding: Binding): () => void {
  bound = binding;
  return () => {
    if (bound === binding) bound = null;
  };
}

/** On a phone the drawer covers the conversation: it gets out of the way once the person has chosen. */
function closeDrawer() {
  const l = layoutState();
  if (l.narrow()) l.setSidebarOpen(false);
}

function focusComposer() {
  // After the chat view has rendered the empty session.
  requestAnimationFrame(() => focusMessageBox());
}

/** Focuses the composer's message box if it is on screen and enabled (the skip link's target); says whether it did. */
export function focusMessageBox(): boolean {
  const box = document.querySelector<HTMLTextAreaElement>('.composer textarea');
  if (!box || box.disabled) return false;
  box.focus();
  return true;
}

/** A new session: none selected, so the next message starts one. */
export function newSession(): void {
  if (!bound?.state.selected()) return;
  bound.state.selectSession(null);
  closeDrawer();
  focusComposer();
}

export function selectSession(id: string): void {
  bound?.state.selectSession(id);
  closeDrawer();
}

export function selectWorkspace(id: string): void {
  bound?.state.select(id);
  closeDrawer();
}

export function toggleSidebar(): void {
  const l = layoutState();
  l.setSidebarOpen(!l.sidebarOpen());
}

export function toggleFilesPanel(): void {
  const l = layoutState();
  l.setFilesOpen(!l.filesOpen());
}

export function openSettings(): void {
  closeDrawer();
  bound?.openSettings();
}

export function newWorkspace(): void {
  closeDrawer();
  bound?.newWorkspace();
}

export function focusSessionSearch(): void {
  const l = layoutState();
  if (!l.sidebarOpen()) l.setSidebarOpen(true);
  requestAnimationFrame(() => document.querySelector<HTMLInputElement>('input[data-session-search]')?.focus());
}

/** The app's own shortcuts, for a shortcuts help to list (tinykeys notation; $mod is Cmd on macOS, Ctrl elsewhere). */
export const APP_SHORTCUTS = [
  { keys: '$mod+B', action: 'toggleSidebar' },
  { keys: '$mod+Shift+O', action: 'newSession' },
] as const;

/** Installs the app's keyboard shortcuts on `target`; returns the uninstall. */
export function installAppShortcuts(target: Window | HTMLElement = window): () => void {
  const run = (action: () => void) => (event: KeyboardEvent) => {
    event.preventDefault();
    action();
  };
  // By key code, so the shortcuts work on any keyboard layout (a Chinese IME, AZERTY). Both carry a modifier, so
  // they also work while typing in the composer (tinykeys 3 listens in form fields too; 3.1.0 is pinned because 4
  // requires Node 22 and the README names Node 20.19).
  const off = tinykeys(target, {
    '$mod+KeyB': run(toggleSidebar),
    '$mod+Shift+KeyO': run(newSession),
  });
  // Esc closes the drawer, unless a dialog or menu is open (Esc belongs to it then).
  const onEscape = (event: Event) => {
    const e = event as KeyboardEvent;
    if (e.key !== 'Escape' || e.defaultPrevented) return;
    const l = layoutState();
    if (!l.narrow() || !l.sidebarOpen() || document.querySelector('dialog[open], :popover-open')) return;
    e.preventDefault(); // handled: a running turn is not stopped by the same key
    l.setSidebarOpen(false);
  };
  target.addEventListener('keydown', onEscape);
  return () => {
    off();
    target.removeEventListener('keydown', onEscape);
  };
}
