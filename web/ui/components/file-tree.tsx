// The Files panel's tree: role tree / treeitem (aria-level, aria-expanded), one row in the tab order (roving
// tabindex), arrows to move, Right/Left to open/close, Enter to open a file. Rows are keyed by path, so a re-read
// keeps the same elements, the scroll position and the focused row.
import { createMemo, createSignal, For, Show } from 'solid-js';
import { formatBytes, type Locale } from '../i18n/i18n';
import { errorText } from './error-text';
import { treeKey, type FolderState, type TreeRow } from './file-tree-model';
import { ChevronIcon } from './files-icons';
import { filesText } from './files-strings';
import { FileIcon, FolderIcon } from './icons';

export function FileTree(props: {
  label: string;
  locale: Locale;
  rows: TreeRow[];
  folders: ReadonlyMap<string, FolderState>;
  maxListed: number;
  onToggle: (path: string) => void;
  onOpen: (path: string) => void;
  /** A folder the person picked with the context menu (right click, or Shift+F10 / the Menu key). */
  onFolderMenu: (path: string) => void;
  /** The row last focused or clicked: the panel offers it as "the folder" to download. */
  onSelect: (row: TreeRow) => void;
}) {
  const [focused, setFocused] = createSignal<string>();
  let tree: HTMLUListElement | undefined;
  const byPath = createMemo(() => new Map(props.rows.map((r) => [r.path, r])));
  const paths = createMemo(() => props.rows.map((r) => r.path));
  // Folders with a visible row under them: an open folder without one says it is empty (its hidden files aside).
  const parents = createMemo(() => new Set(props.rows.map((r) => r.parent)));
  // The row in the tab order: the focused one while it is shown, else the first.
  const current = () =>
    focused() !== undefined && byPath().has(focused() as string) ? focused() : props.rows[0]?.path;
  const focusRow = (path: string) => {
    setFocused(path);
    tree?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`)?.focus();
  };
  const act = (row: TreeRow) => (row.directory ? props.onToggle(row.path) : props.onOpen(row.path));
  const onKeyDown = (event: KeyboardEvent) => {
    const row = byPath().get(current() ?? '');
    if (row?.directory && (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey))) {
      event.preventDefault();
      props.onFolderMenu(row.path);
      return;
    }
    const action = treeKey(props.rows, current(), event.key);
    if (!action) return;
    event.preventDefault();
    if ('focus' in action) focusRow(action.focus);
    else if ('toggle' in action) props.onToggle(action.toggle);
    else props.onOpen(action.open);
  };

  return (
    <ul ref={(el) => (tree = el)} class="file-tree" role="tree" aria-label={props.label} onKeyDown={onKeyDown}>
      <For each={paths()}>
        {(path) => {
          const row = () => byPath().get(path) as TreeRow;
          const folder = () => props.folders.get(path);
          return (
            <Show when={byPath().has(path)}>
              <li
                role="treeitem"
                class="tree-row"
                data-path={path}
                aria-level={row().depth + 1}
                aria-expanded={row().directory ? row().expanded : undefined}
                aria-selected={current() === path}
                aria-label={row().name}
                tabIndex={current() === path ? 0 : -1}
                style={{ '--depth': String(row().depth) }}
                onFocus={() => {
                  setFocused(path);
                  props.onSelect(row());
                }}
                onClick={(event) => {
                  event.stopPropagation();
                  focusRow(path);
                  act(row());
                }}
                onContextMenu={(event) => {
                  if (!row().directory) return;
                  event.preventDefault();
                  props.onFolderMenu(path);
                }}
              >
                <span class="tree-line">
                  <span class="tree-twisty">{row().directory ? <ChevronIcon /> : null}</span>
                  {row().directory ? <FolderIcon /> : <FileIcon />}
                  <span class="file-name">{row().name}</span>
                  {/* Drawn by CSS from data-meta: the size is not part of the row's name (its label, the file's
                      name, is what a person says to a speech-input tool; axe's label-content-name-mismatch). */}
                  <span
                    class="file-meta"
                    aria-hidden="true"
                    data-meta={
                      row().directory
                        ? folder()?.status === 'loading' && row().expanded
                          ? filesText(props.locale, 'tree.folderLoading')
                          : ''
                        : formatBytes(row().size, props.locale)
                    }
                  />
                </span>
                <Show
                  when={
                    row().expanded &&
                    folderNote(folder(), props.locale, row().name, props.maxListed, parents().has(path))
                  }
                >
                  {(note) => (
                    <p
                      class="tree-note"
                      classList={{ error: folder()?.status === 'error' }}
                      role={folder()?.status === 'error' ? 'alert' : 'status'}
                      data-testid={isPartial(folder()) ? 'files-partial' : undefined}
                    >
                      {note()}
                    </p>
                  )}
                </Show>
              </li>
            </Show>
          );
        }}
      </For>
    </ul>
  );
}

/** What an open folder says under its name: empty, in part, or why it could not be read. */
function folderNote(
  state: FolderState | undefined,
  locale: Locale,
  name: string,
  max: number,
  showsChildren: boolean,
): string | undefined {
  if (state?.status === 'error') return errorText(state.error, 'E_FS_IO');
  if (state?.status !== 'ready') return undefined;
  if (state.partial) return filesText(locale, 'tree.truncated', { folder: name, count: max });
  return showsChildren ? undefined : filesText(locale, 'tree.folderEmpty');
}

const isPartial = (state: FolderState | undefined) => state?.status === 'ready' && state.partial;
