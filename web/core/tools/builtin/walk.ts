// The bounded folder walk `glob` and `search` share (seed 000 §9): at most 10000 files and 20000 entries, hidden
// names and build output skipped, depth-first in name order (a folder's files, then its subfolders) so results are
// stable. Symbolic links are skipped (seed 000 §9): the browser's File System Access backend never shows them, and
// the Node backend marks the links it lists (`link: true`); WALK_MAX_DEPTH and the entry cap still bound any walk.
// Files and folders that `.gitignore` / `.ignore` files exclude are left out (ignore-rules.ts) unless the caller
// asks for them; a `.git` folder is never entered. The walk is a generator, so a consumer that has enough (a
// result cap, a time budget) stops it by leaving its loop, and the folders still unlisted are never listed.
import { HarnessError } from '../../contracts';
import type { DirEntry, WorkspaceFs } from '../../contracts';
import { ancestorLevels, isIgnored, readIgnoreLevel, type IgnoreLevels, type SkippedIgnoreFiles } from './ignore-rules';
import {
  IGNORE_FILE_MAX_BYTES,
  IGNORE_FILE_MAX_RULES,
  IGNORE_RULE_MAX_GLOBSTARS,
  SKIPPED_DIRS,
  WALK_LIST_AHEAD,
  WALK_MAX_DEPTH,
  WALK_MAX_ENTRIES,
  WALK_MAX_FILES,
} from '../../contracts';

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
  /** Also walk what `.gitignore` / `.ignore` files exclude (default false). */
  includeIgnored?: boolean;
  /** Called for each file; return false to leave it out of `files` (it still counts as walked). `walk` only. */
  accept?: (entry: DirEntry) => boolean;
}

export interface WalkStats {
  filesWalked: number;
  entriesSeen: number;
  /** Why the walk ended early, if it did. */
  stopped?: 'files' | 'entries';
  /** Folders and files left out: hidden, build output, symbolic links, too deep, `.git`. */
  skipped: number;
  /** Folders and files left out by ignore files. */
  ignored: number;
  /** Ignore files found but not applied (over IGNORE_FILE_MAX_BYTES, IGNORE_FILE_MAX_RULES, IGNORE_RULE_MAX_GLOBSTARS). */
  ignoreFilesSkipped: SkippedIgnoreFiles;
}

export interface WalkResult extends WalkStats {
  files: DirEntry[];
}

export const newWalkStats = (): WalkStats => ({
  filesWalked: 0,
  entriesSeen: 0,
  skipped: 0,
  ignored: 0,
  ignoreFilesSkipped: [],
});

type Listing = { entries: DirEntry[] } | { error: unknown };

/** Files in walk order; `stats` is filled as the walk goes (complete once the loop ends, early or not). */
export async function* walkFiles(
  fs: WorkspaceFs,
  options: WalkOptions,
  stats: WalkStats = newWalkStats(),
): AsyncGenerator<DirEntry, void, undefined> {
  const maxFiles = options.maxFiles ?? WALK_MAX_FILES;
  const maxEntries = options.maxEntries ?? WALK_MAX_ENTRIES;
  const maxDepth = options.maxDepth ?? WALK_MAX_DEPTH;
  const honourIgnores = !options.includeIgnored;
  if (options.start.split('/').includes('.git')) {
    stats.skipped++;
    return;
  }
  // Folders are listed a few ahead of their turn (WALK_LIST_AHEAD) so listing overlaps the consumer's reads; they
  // are still used in walk order. Each asks for the whole entry cap; what exceeds the remaining cap stops the walk
  // exactly where listing with the remaining cap would have refused.
  const listings = new Map<string, Promise<Listing>>();
  const listingOf = (path: string): Promise<Listing> => {
    let listing = listings.get(path);
    if (!listing) {
      // Sizes are not needed here (readers cap their reads), and the browser pays a call per file for each.
      listing = fs.list(path, { maxEntries, sizes: false }).then(
        (entries) => ({ entries }),
        (error: unknown) => ({ error }),
      );
      listings.set(path, listing);
    }
    return listing;
  };
  const start = {
    path: options.start,
    depth: 0,
    levels: (honourIgnores ? await ancestorLevels(fs, options.start, stats.ignoreFilesSkipped) : []) as IgnoreLevels,
  };
  const stack: Array<typeof start> = [start];
  while (stack.length > 0) {
    if (options.signal?.aborted) throw new HarnessError('E_ABORTED', 'The walk was stopped.');
    const dir = stack.pop()!;
    for (let i = stack.length - 1; i >= Math.max(0, stack.length - WALK_LIST_AHEAD); i--)
      void listingOf(stack[i]!.path);
    const listing = await listingOf(dir.path);
    listings.delete(dir.path);
    const remaining = maxEntries - stats.entriesSeen;
    if ('error' in listing) {
      const { error } = listing;
      if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_MANY_ENTRIES') {
        stats.stopped = 'entries';
        stats.entriesSeen = maxEntries;
        return;
      }
      // The start folder must exist; a folder vanishing mid-walk is skipped.
      if (dir.depth === 0) throw error;
      stats.skipped++;
      continue;
    }
    const { entries } = listing;
    if (entries.length > remaining) {
      stats.stopped = 'entries';
      stats.entriesSeen = maxEntries;
      return;
    }
    stats.entriesSeen += entries.length;
    let levels = dir.levels;
    if (honourIgnores) {
      const level = await readIgnoreLevel(fs, dir.path, entries, stats.ignoreFilesSkipped);
      if (level) levels = [...levels, level];
    }
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.link || (entry.directory && entry.name === '.git')) {
        stats.skipped++;
        continue;
      }
      const hidden = entry.name.startsWith('.') && !options.includeHidden;
      if (entry.directory) {
        const build = SKIPPED_DIRS.has(entry.name) && !options.enter?.has(entry.name);
        if (hidden || build || dir.depth + 1 > maxDepth) stats.skipped++;
        else if (levels.length > 0 && isIgnored(levels, entry.path, true)) stats.ignored++;
        else folders.push(entry.path);
        continue;
      }
      if (hidden) {
        stats.skipped++;
        continue;
      }
      if (levels.length > 0 && isIgnored(levels, entry.path, false)) {
        stats.ignored++;
        continue;
      }
      if (stats.filesWalked >= maxFiles) {
        stats.stopped = 'files';
        return;
      }
      stats.filesWalked++;
      yield entry;
    }
    for (let i = folders.length - 1; i >= 0; i--) stack.push({ path: folders[i]!, depth: dir.depth + 1, levels });
    if (stats.entriesSeen >= maxEntries && stack.length > 0) {
      stats.stopped = 'entries';
      return;
    }
  }
}

/** The whole walk at once: the files `accept` keeps (all when absent). */
export async function walk(fs: WorkspaceFs, options: WalkOptions): Promise<WalkResult> {
  const stats = newWalkStats();
  const files: DirEntry[] = [];
  for await (const entry of walkFiles(fs, options, stats))
    if (!options.accept || options.accept(entry)) files.push(entry);
  return { ...stats, files };
}

/** The sentences the model sees when a walk ended early or left files out, '' when it did neither. */
export function walkNote(result: WalkStats, options: { maxFiles?: number; maxEntries?: number } = {}): string {
  const notes: string[] = [];
  if (result.stopped === 'files')
    notes.push(
      `[stopped after ${options.maxFiles ?? WALK_MAX_FILES} files: results are incomplete; narrow the path or pattern]`,
    );
  if (result.stopped === 'entries')
    notes.push(
      `[stopped after ${options.maxEntries ?? WALK_MAX_ENTRIES} folder entries: results are incomplete; narrow the path or pattern]`,
    );
  const big = result.ignoreFilesSkipped;
  if (big.length > 0) {
    const named = big.slice(0, 3).join(', ') + (big.length > 3 ? ` and ${big.length - 3} more` : '');
    const limits = `over ${IGNORE_FILE_MAX_BYTES} bytes, over ${IGNORE_FILE_MAX_RULES} rules, or a rule with over ${IGNORE_RULE_MAX_GLOBSTARS} "**"`;
    notes.push(`[ignore files not applied (${limits}): ${named}; the files they name were walked]`);
  }
  return notes.join('\n');
}

/** The note for a result with nothing to show: ignored paths may be why. */
export function ignoredNote(result: WalkStats): string {
  return result.ignored > 0
    ? `[${result.ignored} files or folders excluded by .gitignore/.ignore were not walked; set include_ignored to true to include them]`
    : '';
}
