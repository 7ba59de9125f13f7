// External tools (plugins, bridge workers, MCP servers) may not shadow built-in tool names (seed 000 §1: "不得重复或
// 覆盖内置工具"). Every built-in name is reserved whatever the profile, so enabling a module later cannot turn an
// external tool into a silent duplicate.
import { HarnessError } from '../../contracts';
import { CORE_TOOL_NAMES } from '../../tools';
import { SHELL_TOOL_NAMES } from '../../shell';

export const MODULE_TOOL_NAMES = [
  'memory_get',
  'memory_set',
  'skill_load',
  'skill_read',
  'web_fetch',
  'web_search',
] as const;
/** Module tools, and the shell tools (offered where a host can run commands: headless i). */
export const BUILTIN_TOOL_NAMES: readonly string[] = [...CORE_TOOL_NAMES, ...MODULE_TOOL_NAMES, ...SHELL_TOOL_NAMES];

/** Throws E_TOOL_SHADOWS_BUILTIN when an external tool takes a built-in name (compared case-insensitively). */
export function checkExternalToolName(name: string, source = 'an external tool'): void {
  const lower = name.toLowerCase();
  if (BUILTIN_TOOL_NAMES.some((b) => b.toLowerCase() === lower)) {
    throw new HarnessError(
      'E_TOOL_SHADOWS_BUILTIN',
      `${source} is named "${name}", which is a built-in tool. Rename the external tool; it may not replace a built-in.`,
      { name },
    );
  }
}
