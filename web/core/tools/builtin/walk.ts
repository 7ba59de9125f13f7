// The bounded folder walk `glob` and `search` share (seed 000 §9): at most 10000 files and 20000 entries, hidden
// names and build output skipped, depth-first in name order so results are stable. Symbolic links are skipped
// (seed 000 §9): the browser's File System Access backend never shows them, and the Node backend marks the links
// it lists (`link: true`); WALK_MAX_DEPTH and the entry cap still bound any walk.
import { HarnessError } from '../../errors';
import type { DirEntry, WorkspaceFs } from '../../fs';
import { SKIPPED_DIRS, WALK_MAX_DEPTH, WALK_MAX_ENTRIES, WALK_MAX_FILES } from './limits';

export interface WalkOptions {
  /** Workspace-relative folder to start from ('' is the root). Hidden/build folders named here are entered. */
  start: string;
  signal?: AbortSignal;
  maxFiles?: number;
  maxEntries?: number;
  maxDepth?: number;
  /** Enter hidden folders and files (names starting with '.'). */
  includeHidden?: boolean;
  /** Skipped folder names that should be entered anyway (named explicitly by a glob). */
  enter?: ReadonlySet<string>;
  /** Called for each file; return false to leave it out of `files` (it still counts as walked). */
  accept?: (entry: DirEntry) => boolean;
}

export interface WalkResult {
  files: DirEntry[];
  filesWalked: number;
  entriesSeen: number;
  /** Why the walk ended early, if it did. */
  stopped?: 'files' | 'entries';
  /** Folders and files left out: hidden, build output, symbolic links, too deep. */
  skipped: number;
}

export async function walk(fs: WorkspaceFs, options: WalkOptions): Promise<WalkResult> {
  const maxFiles = options.maxFiles ?? WALK_MAX_FILES;
  const maxEntries = options.maxEntries ?? WALK_MAX_ENTRIES;
  const maxDepth = options.maxDepth ?? WALK_MAX_DEPTH;
  const result: WalkResult = { files: [], filesWalked: 0, entriesSeen: 0, skipped: 0 };
  const stack: Array<{ path: string; depth: number }> = [{ path: options.start, depth: 0 }];
  while (stack.length > 0) {
    if (options.signal?.aborted) throw new HarnessError('E_ABORTED', 'The walk was stopped.');
    const dir = stack.pop()!;
    const remaining = maxEntries - result.entriesSeen;
    let entries: DirEntry[];
    try {
      entries = await fs.list(dir.path, { maxEntries: remaining });
    } catch (error) {
      if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_MANY_ENTRIES') {
        result.stopped = 'entries';
        result.entriesSeen = maxEntries;
        break;
      }
      // The start folder must exist; a folder vanishing mid-walk is skipped.
      if (dir.depth === 0) throw error;
      result.skipped++;
      continue;
    }
    result.entriesSeen += entries.length;
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.link) {
        result.skipped++;
        continue;
      }
      const hidden = entry.name.startsWith('.') && !options.includeHidden;
      if (entry.directory) {
        const build = SKIPPED_DIRS.has(entry.name) && !options.enter?.has(entry.name);
        if (hidden || build || dir.depth + 1 > maxDepth) result.skipped++;
        else folders.push(entry.path);
        continue;
      }
      if (hidden) {
        result.skipped++;
        continue;
      }
      if (result.filesWalked >= maxFiles) {
        result.stopped = 'files';
        return result;
      }
      result.filesWalked++;
      if (!options.accept || options.accept(entry)) result.files.push(entry);
    }
    for (let i = folders.length - 1; i >= 0; i--) stack.push({ path: folders[i]!, depth: dir.depth + 1 });
    if (result.entriesSeen >= maxEntries && stack.length > 0) {
      result.stopped = 'entries';
      break;
    }
  }
  return result;
}

/** The sentence the model sees when a walk ended early. */
export function walkNote(result: WalkResult, options: { maxFiles?: number; maxEntries?: number } = {}): string {
  if (result.stopped === 'files') return `[stopped after ${options.maxFiles ?? WALK_MAX_FILES} files: results are incomplete; narrow the path or pattern]`;
  if (result.stopped === 'entries') return `[stopped after ${options.maxEntries ?? WALK_MAX_ENTRIES} folder entries: results are incomplete; narrow the path or pattern]`;
  return '';
}
