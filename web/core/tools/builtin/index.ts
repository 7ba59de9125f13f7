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
export { compileGlob, expandBraces, type GlobMatcher, type GlobOptions } from '../../contracts/glob';
export { compileLinearRegex, REGEX_MAX_PROGRAM, REGEX_MAX_REPEAT, type LinearRegex } from './linear-regex';
export { walk, type WalkOptions, type WalkResult } from './walk';
export * from '../../contracts/tool-limits';
export { toolError } from './tool-kit';

import type { ToolDefinition } from '../../contracts/tools';
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
