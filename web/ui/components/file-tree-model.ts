// The Files panel's tree as data: the folders read so far, which are open, and the visible rows they make, plus
// the WAI-ARIA tree keyboard moves over those rows. Pure, so the panel only renders and loads.
import type { DirEntry } from '../../core/contracts';

export type FolderState =
  | { status: 'loading' }
  | { status: 'ready'; entries: DirEntry[]; partial: boolean }
  | { status: 'error'; error: unknown };

export interface TreeRow {
  path: string;
  name: string;
  /** 0 for entries of the workspace root. */
  depth: number;
  directory: boolean;
  size: number;
  /** Folders only: open, and what is known of their content. */
  expanded: boolean;
  parent: string;
}

/** Folders first, then by name (the port lists by name already; this keeps the order stable across reads). */
function ordered(entries: DirEntry[], showHidden: boolean): DirEntry[] {
  const shown = showHidden ? entries : entries.filter((e) => !e.name.startsWith('.'));
  return [...shown].sort(
    (a, b) => Number(b.directory) - Number(a.directory) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** The rows a person sees: the root's entries, and under each open folder its own, depth first. */
export function visibleRows(
  folders: ReadonlyMap<string, FolderState>,
  expanded: ReadonlySet<string>,
  showHidden: boolean,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (dir: string, depth: number) => {
    const state = folders.get(dir);
    if (state?.status !== 'ready') return;
    for (const entry of ordered(state.entries, showHidden)) {
      const open = entry.directory && expanded.has(entry.path);
      rows.push({
        path: entry.path,
        name: entry.name,
        depth,
        directory: entry.directory,
        size: entry.size,
        expanded: open,
        parent: dir,
      });
      if (open) walk(entry.path, depth + 1);
    }
  };
  walk('', 0);
  return rows;
}

/** Open folders whose parent is no longer open or no longer lists them are forgotten, so a re-read skips them. */
export function reachableOpenFolders(
  folders: ReadonlyMap<string, FolderState>,
  expanded: ReadonlySet<string>,
): Set<string> {
  const kept = new Set<string>();
  const walk = (dir: string) => {
    const state = folders.get(dir);
    if (state?.status !== 'ready') return;
    for (const entry of state.entries) {
      if (entry.directory && expanded.has(entry.path)) {
        kept.add(entry.path);
        walk(entry.path);
      }
    }
  };
  walk('');
  // A folder still loading is kept: its parent listed it when it was opened.
  for (const path of expanded) if (folders.get(path)?.status === 'loading') kept.add(path);
  return kept;
}

export type TreeAction = { focus: string } | { toggle: string } | { open: string } | null;

/** What a key does on the row `current` (WAI-ARIA tree pattern: arrows move, Right/Left open/close or step in/out). */
export function treeKey(rows: TreeRow[], current: string | undefined, key: string): TreeAction {
  if (rows.length === 0) return null;
  const at = Math.max(
    0,
    rows.findIndex((r) => r.path === current),
  );
  const row = rows[at] as TreeRow;
  switch (key) {
    case 'ArrowDown':
      return { focus: (rows[Math.min(at + 1, rows.length - 1)] as TreeRow).path };
    case 'ArrowUp':
      return { focus: (rows[Math.max(at - 1, 0)] as TreeRow).path };
    case 'Home':
      return { focus: (rows[0] as TreeRow).path };
    case 'End':
      return { focus: (rows[rows.length - 1] as TreeRow).path };
    case 'ArrowRight':
      if (!row.directory) return null;
      if (!row.expanded) return { toggle: row.path };
      return rows[at + 1]?.parent === row.path ? { focus: (rows[at + 1] as TreeRow).path } : null;
    case 'ArrowLeft':
      if (row.directory && row.expanded) return { toggle: row.path };
      return row.parent ? { focus: row.parent } : null;
    case 'Enter':
    case ' ':
      return row.directory ? { toggle: row.path } : { open: row.path };
    default:
      return null;
  }
}
