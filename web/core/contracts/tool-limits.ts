// Every limit of the built-in tools in one place. Seed 000 §9 fixes the search walk (10000 files, 20000 entries)
// and seed 000 §5 the image cap (8 MiB); the others are ours, chosen so one result stays a few tens of kilobytes
// and documented in CONTEXT.md. Tests pass smaller values through options; the defaults never change silently.

/** `read`: files larger than this are refused (use `search`, or `read` a smaller file). */
export const READ_MAX_FILE_BYTES = 4 * 1024 * 1024;
/** `read`: lines returned when no `limit` is given, and the largest `limit` accepted. */
export const READ_DEFAULT_LINES = 2000;
/** `read`: a longer line is cut and marked. */
export const READ_MAX_LINE_CHARS = 2000;
/** `read`: the whole output stops before this many characters and says where to continue. */
export const READ_MAX_OUTPUT_CHARS = 100_000;

/** `write`/`edit`: the WorkspaceFs per-file cap (8 MiB, seed 004) applies; diffs shown for approval are bounded. */
export const DIFF_MAX_CHARS = 200_000;
/** Edit distance jsdiff explores (`maxEditLength`) before the diff falls back to one replace hunk (still a correct
 * diff). Its search costs (lines × edits) steps, so the distance also shrinks to DIFF_MAX_WORK / lines for long
 * files (deterministic), and DIFF_TIMEOUT_MS is the wall-clock backstop (jsdiff's `timeout`). */
export const DIFF_MAX_EDITS = 1000;
export const DIFF_MAX_WORK = 50_000_000;
export const DIFF_TIMEOUT_MS = 2000;
/** `write`/`edit`: files (before or proposed) up to this many characters are offered whole for review and editing
 * before approval (they cross to the page with the approval request); larger ones show the diff only. */
export const REVIEW_MAX_CHARS = 1_000_000;
/** `write`/`edit`: the diff from the model's proposal to the person's edited version, in the tool result. */
export const PERSON_EDIT_DIFF_MAX_CHARS = 8000;
/** `write` (over an existing file) and `edit`: the diff of what was written, at the end of the tool result, so the log
 * keeps it and the chat shows it after a reload (and the model sees the lines it changed). Cut with a marker line. */
export const APPLIED_DIFF_MAX_CHARS = 4000;
/** The line that starts that diff in the result; the chat finds the diff by it. */
export const APPLIED_DIFF_HEADER = 'Diff of what was written:';

/** `glob`/`search`: seed 000 §9. */
export const WALK_MAX_FILES = 10_000;
export const WALK_MAX_ENTRIES = 20_000;
/** Folder depth the walk descends; bounds a symlink loop the Node backend would follow inside the root. */
export const WALK_MAX_DEPTH = 32;
/** Names skipped by the walk (build output, dependencies, caches) unless the walk starts inside one. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '__pycache__',
  'venv',
]);

/** `glob`: paths listed at most. */
export const GLOB_MAX_RESULTS = 1000;
/** `glob`: brace alternatives after expansion. */
export const GLOB_MAX_ALTERNATIVES = 64;
export const GLOB_MAX_PATTERN_CHARS = 1000;

/** `search`: files larger than this are skipped as "huge". */
export const SEARCH_MAX_FILE_BYTES = 1024 * 1024;
/** `search`: pattern length (regex or literal). */
export const SEARCH_MAX_PATTERN_CHARS = 256;
/** `search`: only this many characters of a line are tested (bounds the linear-time regex on minified files). */
export const SEARCH_MAX_LINE_CHARS = 4000;
/** `search`: the snippet shown per match. */
export const SEARCH_SNIPPET_CHARS = 200;
export const SEARCH_MAX_MATCHES = 200;
export const SEARCH_MAX_OUTPUT_CHARS = 20_000;
/** `search`: files read at the same time (a pool over WorkspaceFs; results still come out in walk order). */
export const SEARCH_CONCURRENCY = 32;
/** `glob`/`search`: folders listed ahead of the walk (their order of use stays the walk order). */
export const WALK_LIST_AHEAD = 8;

/** `.gitignore` / `.ignore` files met on the walk: larger ones, ones with more rules, or with a rule of more `**`
 * than this, are not applied (with a note). The `ignore` package tests every rule against every path (measured
 * ~0.2 µs per rule and path), and compiles a rule to a JS RegExp: its `*` cannot backtrack, but each `**` can
 * (per path 32 folders deep: 9 µs with 2, 0.2 ms with 3, 1.8 ms with 4, 880 ms for a first path with 8). */
export const IGNORE_FILE_MAX_BYTES = 256 * 1024;
export const IGNORE_FILE_MAX_RULES = 1000;
export const IGNORE_RULE_MAX_GLOBSTARS = 2;
/** Ignore files names, in rising precedence within one folder (ripgrep's order: `.ignore` wins). */
export const IGNORE_FILE_NAMES = ['.gitignore', '.ignore'] as const;

/** `view_image`: seed 000 §5. */
export const IMAGE_MAX_BYTES = 8 * 1024 * 1024;

/** Bytes inspected for NUL when deciding a file is binary. */
export const BINARY_SNIFF_BYTES = 8192;
/** `search`: wall-clock budget checked between lines; the search stops and says so when it is spent. */
export const SEARCH_TIME_LIMIT_MS = 10_000;
