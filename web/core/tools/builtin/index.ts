// Public face of the built-in file tools: read, write, edit, glob, search, view_image, all over WorkspaceFs so
// they run in the browser and in headless `i`. Profiles and module tools (skills, memory, web) are assembled by
// web/core/modules (`builtinTools`). CONTEXT.md lists every tool's arguments, limits, codes and approval class.
export { readTool, numberLines, type ReadLimits } from './read';
export { writeTool } from './write';
export { editTool } from './edit';
export { globTool, type GlobLimits } from './glob';
export { searchTool, type SearchLimits } from './search';
export { viewImageTool, toBase64 } from './view-image';
export { unifiedDiff, type DiffOptions } from './diff';
export { compileGlob, expandBraces, type GlobMatcher, type GlobOptions } from '../../contracts';
export { compileLinearRegex, REGEX_MAX_PROGRAM, REGEX_MAX_REPEAT, type LinearRegex } from './linear-regex';
export { walk, type WalkOptions, type WalkResult } from './walk';
export {
  BINARY_SNIFF_BYTES,
  DIFF_MAX_CHARS,
  DIFF_MAX_EDITS,
  DIFF_MAX_WORK,
  DIFF_TIMEOUT_MS,
  GLOB_MAX_ALTERNATIVES,
  GLOB_MAX_PATTERN_CHARS,
  GLOB_MAX_RESULTS,
  IGNORE_FILE_MAX_BYTES,
  IGNORE_FILE_MAX_RULES,
  IGNORE_FILE_NAMES,
  IGNORE_RULE_MAX_GLOBSTARS,
  IMAGE_MAX_BYTES,
  PERSON_EDIT_DIFF_MAX_CHARS,
  READ_DEFAULT_LINES,
  READ_MAX_FILE_BYTES,
  READ_MAX_LINE_CHARS,
  READ_MAX_OUTPUT_CHARS,
  REVIEW_MAX_CHARS,
  SEARCH_CONCURRENCY,
  SEARCH_MAX_FILE_BYTES,
  SEARCH_MAX_LINE_CHARS,
  SEARCH_MAX_MATCHES,
  SEARCH_MAX_OUTPUT_CHARS,
  SEARCH_MAX_PATTERN_CHARS,
  SEARCH_SNIPPET_CHARS,
  SEARCH_TIME_LIMIT_MS,
  SKIPPED_DIRS,
  WALK_LIST_AHEAD,
  WALK_MAX_DEPTH,
  WALK_MAX_ENTRIES,
  WALK_MAX_FILES,
} from '../../contracts';
export { toolError } from './tool-kit';

import type { ToolDefinition } from '../../contracts';
import { editTool } from './edit';
import { globTool } from './glob';
import { readTool } from './read';
import { searchTool } from './search';
import { viewImageTool } from './view-image';
import { writeTool } from './write';

/** Names of the core file tools: never replaced by a binding, never shadowed by an external tool. */
export const CORE_TOOL_NAMES = ['read', 'write', 'edit', 'glob', 'search', 'view_image'] as const;

/** The core file tools with default limits, in a stable order (keeps the prompt prefix cacheable). */
export function coreFileTools(): ToolDefinition[] {
  return [readTool(), writeTool(), editTool(), globTool(), searchTool(), viewImageTool()];
}
