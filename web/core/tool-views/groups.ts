// Tool groups for views (seed 002: groups are host metadata, not authorisation). A built-in tool's group comes
// from its name; an external tool's from `ToolDefinition.origin`, which the host sets when it registers it.
import type { ToolDefinition } from '../contracts';

/** The fixed groups of built-in tools. */
export const BUILTIN_GROUPS = ['files', 'search', 'web', 'memory', 'skills', 'shell'] as const;

// `read_result` is in `files`: a bounded result's preview names a reference only it can read, so a view with the
// file tools and without it would leave every long result unreadable.
const BUILTIN_MEMBERS: Record<string, (typeof BUILTIN_GROUPS)[number]> = {
  read: 'files',
  write: 'files',
  edit: 'files',
  view_image: 'files',
  read_result: 'files',
  glob: 'search',
  search: 'search',
  web_fetch: 'web',
  web_search: 'web',
  memory_get: 'memory',
  memory_set: 'memory',
  skill_load: 'skills',
  skill_read: 'skills',
  shell: 'shell',
  shell_output: 'shell',
  shell_stop: 'shell',
};

/** A group name as configured: a fixed group, `plugin:<id>`, `bridge` or `mcp:<server>`. */
export const GROUP_PATTERN =
  /^(files|search|web|memory|skills|shell|bridge|plugin:[a-z0-9][a-z0-9._-]{0,63}|mcp:[A-Za-z0-9_-]{1,64})$/;

/** The group a tool belongs to, or null (a built-in outside the groups is reachable by name only). */
export function groupOf(def: Pick<ToolDefinition, 'external' | 'origin' | 'schema'>): string | null {
  if (def.origin?.kind === 'plugin') return `plugin:${def.origin.pluginId}`;
  if (def.origin?.kind === 'bridge') return 'bridge';
  if (def.origin?.kind === 'mcp') return `mcp:${def.origin.server}`;
  if (def.external) return null;
  return BUILTIN_MEMBERS[def.schema.name] ?? null;
}
