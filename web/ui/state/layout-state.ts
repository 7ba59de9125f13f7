// Layout preferences of this browser: whether the sidebar and the files panel are open and how wide the panel is.
// These are UI preferences, not settings (nothing to export or sync), so they live in localStorage. Below 768 px
// the sidebar is a drawer over the content: closed on every start, its state never stored.
import { createRoot, createSignal, type Accessor } from 'solid-js';

export const DRAWER_BELOW = 768;
export const FILES_COLLAPSED_BELOW = 1024;
export const FILES_WIDTH = { min: 220, max: 720, initial: 320 } as const;

const KEYS = { sidebar: 'i.layout.sidebar', files: 'i.layout.files', width: 'i.layout.filesWidth' } as const;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage blocked (private mode, policy): defaults apply
  }
}
function write(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // same: a preference that cannot be kept is not worth an error
  }
}

export function clampFilesWidth(px: number, available = Infinity): number {
  // The panel never takes more than 60 % of the workspace, so the conversation keeps the larger part.
  const max = Math.max(FILES_WIDTH.min, Math.min(FILES_WIDTH.max, Math.floor(available * 0.6)));
  return Math.round(Math.min(max, Math.max(FILES_WIDTH.min, px)));
}

export interface LayoutState {
  /** True below 768 px: the sidebar is a drawer over the content. */
  narrow: Accessor<boolean>;
  /** The sidebar is shown (a column when wide, the open drawer when narrow). */
  sidebarOpen: Accessor<boolean>;
  setSidebarOpen(open: boolean): void;
  filesOpen: Accessor<boolean>;
  setFilesOpen(open: boolean): void;
  filesWidth: Accessor<number>;
  setFilesWidth(px: number): void;
}

function createLayoutState(): LayoutState {
  const query = matchMedia(`(max-width: ${DRAWER_BELOW - 0.02}px)`);
  const [narrow, setNarrow] = createSignal(query.matches);
  const [wideSidebar, setWideSidebar] = createSignal(read(KEYS.sidebar) !== 'closed');
  const [drawer, setDrawer] = createSignal(false);
  const [filesOpen, setFiles] = createSignal(innerWidth >= FILES_COLLAPSED_BELOW && read(KEYS.files) !== 'closed');
  const stored = Number(read(KEYS.width));
  const [filesWidth, setWidth] = createSignal(
    clampFilesWidth(Number.isFinite(stored) && stored > 0 ? stored : FILES_WIDTH.initial),
  );
  query.addEventListener('change', () => {
    setNarrow(query.matches);
    setDrawer(false); // a drawer left open while the window widened must not reappear over the content later
  });
  // A window made narrow (a laptop split-screen, a phone turned) gives the conversation the room: the panel folds
  // without changing the stored preference, as it starts folded on a narrow screen.
  const small = matchMedia(`(max-width: ${FILES_COLLAPSED_BELOW - 0.02}px)`);
  small.addEventListener('change', () => {
    if (small.matches) setFiles(false);
  });
  return {
    narrow,
    sidebarOpen: () => (narrow() ? drawer() : wideSidebar()),
    setSidebarOpen(open) {
      if (narrow()) return void setDrawer(open);
      setWideSidebar(open);
      write(KEYS.sidebar, open ? 'open' : 'closed');
    },
    filesOpen,
    setFilesOpen(open) {
      setFiles(open);
      write(KEYS.files, open ? 'open' : 'closed');
    },
    filesWidth,
    setFilesWidth(px) {
      setWidth(clampFilesWidth(px));
      write(KEYS.width, String(filesWidth()));
    },
  };
}

let layout: LayoutState | undefined;
/** The one layout state of the page, made on first use (a root of its own: it lives as long as the page). */
export function layoutState(): LayoutState {
  return (layout ??= createRoot(() => createLayoutState()));
}
