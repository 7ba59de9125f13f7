// The panel beside the conversation: a tab strip (Files now; later issues add Changes and Context) over the open
// tab, resizable by its edge (a separator: drag it, or focus it and use the arrow keys) and collapsible (Toggle files
// panel). The width is a UI preference kept in this browser (state/layout-state.ts).
import { createEffect, createUniqueId, For, type JSX } from 'solid-js';
import { clampFilesWidth, FILES_WIDTH, layoutState } from '../state/layout-state';
import type { Translate } from '../i18n/i18n';

export interface SidePanelTab {
  id: string;
  label: string;
  content: () => JSX.Element;
}

const STEP = 16;

export function SidePanel(props: { t: Translate; tabs: SidePanelTab[]; hidden: boolean }) {
  const layout = layoutState();
  const base = createUniqueId();
  let panel!: HTMLElement;
  // One tab today: the strip is there so the next tabs join it without moving anything.
  const selected = () => props.tabs[0]!;
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

  return (
    <aside id="side-panel" ref={(el) => (panel = el)} class="side-panel" hidden={props.hidden} aria-label={props.t('layout.sidePanel')}>
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
            <button type="button" role="tab" class="tab" id={`${base}-${tab.id}`} aria-selected={selected().id === tab.id} aria-controls={`${base}-panel`} tabIndex={selected().id === tab.id ? 0 : -1}>
              {tab.label}
            </button>
          )}
        </For>
      </div>
      <div class="side-panel-body" role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${selected().id}`}>
        {selected().content()}
      </div>
    </aside>
  );
}
