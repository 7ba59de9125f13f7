// `.gitignore` / `.ignore` files met on the walk of glob and search (issue 18): what ripgrep and git users expect
// to be left out stays out. The rules themselves are git's, as the `ignore` package implements them (negation `!`,
// anchored `/x`, dir-only `x/`, `**`); this file only decides which files apply to a path. A file's rules apply to
// its own folder's subtree, a deeper file wins over a shallower one, and within one folder `.ignore` wins over
// `.gitignore` (ripgrep's order). Outsized files are not applied and named in a note (limits.ts).
//
// Git's algorithm (dir.c), which the walk follows: a path is judged by the deepest ignore file that has a rule
// matching the path itself (its last such rule: a `!` rule re-includes), and an excluded folder is not entered, so
// nothing below it can be re-included. A folder is judged before its own ignore files are read. The parents of a path
// are therefore never judged again with it: the walk only reaches a path whose parents were all kept.
import ignore, { type Ignore } from 'ignore';
import type { DirEntry, WorkspaceFs } from '../../contracts';
import {
  IGNORE_FILE_MAX_BYTES,
  IGNORE_FILE_MAX_RULES,
  IGNORE_FILE_NAMES,
  IGNORE_RULE_MAX_GLOBSTARS,
} from '../../contracts';

/** The rules of one folder's ignore files; `base` is that folder ('' for the root). */
export interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

type Verdict = { ignored: boolean; unignored: boolean };

/**
 * The verdict of one level's rules on the path itself, not its parents. The package's public `test()` also judges
 * every parent folder with the same rules and answers "ignored" for anything inside a folder they exclude, which is
 * wrong for a folder a deeper file re-included (`!/node_modules/` below a `node_modules/`): git lists its files.
 * The rule list's own `test(path, 'regex')` is that per-path match (`ignore` 7.0.17, pinned exactly; the suite and
 * nested-ignore-vs-git.test.ts fail if an upgrade changes it). Without it, the public `test()` is used.
 */
function ownVerdict(rules: Ignore, path: string): Verdict {
  const list = (rules as unknown as { _rules?: { test?: (path: string, mode: string) => Verdict } })._rules;
  return typeof list?.test === 'function' ? list.test(path, 'regex') : rules.test(path);
}

/** Outermost first; the walk appends a level per folder that has ignore files. */
export type IgnoreLevels = readonly IgnoreLevel[];

/**
 * True when the deepest level with a rule matching the path itself ignores it. A level whose rules neither ignore
 * nor re-include the path leaves the decision to the levels above it, as git does. The caller has kept every parent
 * folder of `path` (the walk enters only those), so parents are not judged again.
 */
export function isIgnored(levels: IgnoreLevels, path: string, directory: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const level = levels[i]!;
    const rel = level.base === '' ? path : path.slice(level.base.length + 1);
    let verdict: Verdict;
    try {
      verdict = ownVerdict(level.rules, directory ? `${rel}/` : rel);
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

async function readRules(
  fs: WorkspaceFs,
  path: string,
  size: number | undefined,
  skipped: SkippedIgnoreFiles,
): Promise<string[] | null> {
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
export async function readIgnoreLevel(
  fs: WorkspaceFs,
  dir: string,
  entries: readonly DirEntry[] | null,
  skipped: SkippedIgnoreFiles,
): Promise<IgnoreLevel | null> {
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
 * Each folder on the way is judged as the walk would judge it, by the levels above it. A start inside an excluded
 * folder (or excluded itself) was named on purpose, like a path given to ripgrep: it is searched, and then only
 * the ignore files inside it apply.
 */
export async function ancestorLevels(
  fs: WorkspaceFs,
  start: string,
  skipped: SkippedIgnoreFiles,
): Promise<IgnoreLevel[]> {
  if (start === '') return [];
  const names = start.split('/');
  const levels: IgnoreLevel[] = [];
  for (let i = 0; i < names.length; i++) {
    const level = await readIgnoreLevel(fs, names.slice(0, i).join('/'), null, skipped);
    if (level) levels.push(level);
    if (levels.length > 0 && isIgnored(levels, names.slice(0, i + 1).join('/'), true)) return [];
  }
  return levels;
}
