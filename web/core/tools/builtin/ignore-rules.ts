// `.gitignore` / `.ignore` files met on the walk of glob and search (issue 18): what ripgrep and git users expect
// to be left out stays out. The rules themselves are git's, as the `ignore` package implements them (negation `!`,
// anchored `/x`, dir-only `x/`, `**`); this file only decides which files apply to a path. A file's rules apply to
// its own folder's subtree, a deeper file wins over a shallower one, and within one folder `.ignore` wins over
// `.gitignore` (ripgrep's order). Outsized files are not applied and named in a note (limits.ts).
import ignore, { type Ignore } from 'ignore';
import type { DirEntry, WorkspaceFs } from '../../fs';
import { IGNORE_FILE_MAX_BYTES, IGNORE_FILE_MAX_RULES, IGNORE_FILE_NAMES, IGNORE_RULE_MAX_GLOBSTARS } from './limits';

/** The rules of one folder's ignore files; `base` is that folder ('' for the root). */
export interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

/** Outermost first; the walk appends a level per folder that has ignore files. */
export type IgnoreLevels = readonly IgnoreLevel[];

/**
 * True when the deepest level with an opinion ignores the path. A level whose rules neither ignore nor re-include
 * the path leaves the decision to the levels above it, as git does. Known gap: a folder an outer file excludes and
 * a deeper file re-includes (`!build/`) is entered, but the outer file still counts it as an excluded parent of
 * the files inside (git would list them).
 */
export function isIgnored(levels: IgnoreLevels, path: string, directory: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const rel = level.base === '' ? path : path.slice(level.base.length + 1);
    let verdict: ignore.TestResult;
    try {
      verdict = level.rules.test(directory ? `${rel}/` : rel);
    } catch {
      continue; // the package refuses paths it calls not relative (none of a walk's paths are): no opinion
    }
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/** Ignore files that were found but not applied (too large, too many rules, a rule too costly), for the notes. */
export type SkippedIgnoreFiles = string[];

async function readRules(fs: WorkspaceFs, path: string, size: number | undefined, skipped: SkippedIgnoreFiles): Promise<string[] | null> {
  if (size !== undefined && size > IGNORE_FILE_MAX_BYTES) {
    skipped.push(path);
    return null;
  }
  let bytes: Uint8Array;
  try {
    bytes = await fs.readBytes(path, { maxBytes: IGNORE_FILE_MAX_BYTES });
  } catch (error) {
    // Absent (an ancestor without one) or unreadable: nothing to apply. Grown past the cap since the listing: skip.
    if ((error as { code?: unknown }).code === 'E_FS_TOO_LARGE') skipped.push(path);
    return null;
  }
  const lines = new TextDecoder().decode(bytes).split(/\r?\n/);
  const rules = lines.filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const costly = (rule: string) => rule.split('**').length - 1 > IGNORE_RULE_MAX_GLOBSTARS;
  if (rules.length > IGNORE_FILE_MAX_RULES || rules.some(costly)) {
    skipped.push(path);
    return null;
  }
  return rules;
}

/**
 * The level for folder `dir`, from the ignore files in its listing (`entries`), or from probing for them when the
 * listing is not at hand (`entries` null: folders above the walk's start). Null when the folder has none.
 */
export async function readIgnoreLevel(fs: WorkspaceFs, dir: string, entries: readonly DirEntry[] | null, skipped: SkippedIgnoreFiles): Promise<IgnoreLevel | null> {
  let rules: Ignore | null = null;
  for (const name of IGNORE_FILE_NAMES) {
    let size: number | undefined;
    if (entries) {
      const entry = entries.find((e) => e.name === name);
      if (!entry || entry.directory || entry.link) continue;
      size = entry.size;
    }
    const lines = await readRules(fs, dir === '' ? name : `${dir}/${name}`, size, skipped);
    if (lines && lines.length > 0) (rules ??= ignore()).add(lines);
  }
  return rules ? { base: dir, rules } : null;
}

/**
 * Levels of the folders above a walk that starts at `start` (git applies a parent's .gitignore to a subfolder).
 * A start that those rules ignore was named on purpose, like a path given to ripgrep: it is searched, and then
 * only the ignore files inside it apply.
 */
export async function ancestorLevels(fs: WorkspaceFs, start: string, skipped: SkippedIgnoreFiles): Promise<IgnoreLevel[]> {
  if (start === '') return [];
  const names = start.split('/');
  const levels: IgnoreLevel[] = [];
  for (let i = 0; i < names.length; i++) {
    const level = await readIgnoreLevel(fs, names.slice(0, i).join('/'), null, skipped);
    if (level) levels.push(level);
  }
  return isIgnored(levels, start, true) ? [] : levels;
}
