// The panel beside the conversation: a tab strip (Files, Changes; Context later) over the open tab, resizable by its
// edge (a separator: drag it, or focus it and use the arrow keys) and collapsible (Toggle files panel). The width is
// a UI preference kept in this browser (state/layout-state.ts). Every tab stays mounted (hidden when not chosen), so
// the Files tree keeps its open folders and scroll position.
import { createEffect, createSignal, createUniqueId, For, type JSX } from 'solid-js';
import { clampFilesWidth, FILES_WIDTH, layoutState } from '../state/layout-state';
import type { Translate } from '../i18n/i18n';

export interface SidePanelTab {
  id: string;
  label: string;
  content: () => JSX.Element;
}

const STEP = 16;

const [chosenTab, setChosenTab] = createSignal<string | null>(null);

/** Opens the side panel on one of its tabs (the session header's +/− total opens Changes). */
export function openSidePanelTab(id: string): void {
  setChosenTab(id);
  layoutState().setFilesOpen(true);
}

export function SidePanel(props: { t: Translate; tabs: SidePanelTab[]; hidden: boolean }) {
  const layout = layoutState();
  const base = createUniqueId();
  let panel!: HTMLElement;
  const selected = () => props.tabs.find((tab) => tab.id === chosenTab()) ?? props.tabs[0]!;
  const available = () => panel?.parentElement?.clientWidth ?? innerWidth;

  createEffect(() => {
    // Through the CSSOM: the production CSP has no 'unsafe-inline' for style attributes.
    panel.style.setProperty('--side-panel-width', `${layout.filesWidth()}px`);
  });

  function onPointerDown(e: PointerEvent) {
    if (e.button !== 0) return;
    const handle = e.currentTarget as HTMLElement;
    handle.setPointerCapture(e.pointerId);
    const right = panel.getBoundingClientRect().right;
    const move = (ev: PointerEvent) => layout.setFilesWidth(clampFilesWidth(right - ev.clientX, available()));
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      document.body.classList.remove('resizing');
    };
    document.body.classList.add('resizing');
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
    e.preventDefault();
  }

  function onKey(e: KeyboardEvent) {
    // The panel is on the right: moving its edge left makes it wider.
    const w = layout.filesWidth();
    const next = { ArrowLeft: w + STEP, ArrowRight: w - STEP, Home: FILES_WIDTH.max, End: FILES_WIDTH.min }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    layout.setFilesWidth(clampFilesWidth(next, available()));
  }

  // Arrow keys move between tabs (WAI-ARIA tabs pattern, automatic activation).
  function onTabKey(e: KeyboardEvent) {
    const at = props.tabs.findIndex((tab) => tab.id === selected().id);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: props.tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const tab = props.tabs[(to + props.tabs.length) % props.tabs.length]!;
    setChosenTab(tab.id);
    document.getElementById(`${base}-${tab.id}`)?.focus();
  }

  return (
    <aside
      id="side-panel"
      ref={(el) => (panel = el)}
      class="side-panel"
      hidden={props.hidden}
      aria-label={props.t('layout.sidePanel')}
    >
      <div
        class="side-panel-handle"
        role="separator"
        aria-orientation="vertical"
        aria-label={props.t('layout.resizeFiles')}
        aria-controls="side-panel"
        aria-valuenow={layout.filesWidth()}
        aria-valuemin={FILES_WIDTH.min}
        aria-valuemax={FILES_WIDTH.max}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onKeyDown={onKey}
      />
      <div class="side-panel-tabs" role="tablist" aria-label={props.t('layout.sidePanel')}>
        <For each={props.tabs}>
          {(tab) => (
            <button
              type="button"
              role="tab"
              class="tab"
              id={`${base}-${tab.id}`}
              aria-selected={selected().id === tab.id}
              aria-controls={`${base}-panel-${tab.id}`}
              tabIndex={selected().id === tab.id ? 0 : -1}
              onClick={() => setChosenTab(tab.id)}
              onKeyDown={onTabKey}
            >
              {tab.label}
            </button>
          )}
        </For>
      </div>
      <For each={props.tabs}>
        {(tab) => (
          <div
            class="side-panel-body"
            role="tabpanel"
            id={`${base}-panel-${tab.id}`}
            aria-labelledby={`${base}-${tab.id}`}
            hidden={selected().id !== tab.id}
          >
            {tab.content()}
          </div>
        )}
      </For>
    </aside>
  );
}
