// `tool_view` as configured (the model config file's key, headless; Settings → Agent per workspace, app):
// `{"names": [...], "groups": [...]}`. Absent means every authorised tool. Validated strictly here; whether the
// names and groups exist is only known per turn, against the authorised set (select.ts).
import { HarnessError } from '../contracts';
import { TOOL_NAME_PATTERN } from '../tools';
import { GROUP_PATTERN } from './groups';
import { TOOL_VIEW_LIMITS } from './limits';

export interface ToolViewConfig {
  names: string[];
  groups: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a `tool_view` value; `path` names it in errors (`tool_view`). Duplicates are refused, not merged. */
export function parseToolViewConfig(value: unknown, path = 'tool_view'): ToolViewConfig {
  const invalid = (where: string, what: string) =>
    new HarnessError('E_TOOL_VIEW_CONFIG_INVALID', `At ${where}: ${what}`, { path: where });
  if (!isObj(value)) throw invalid(path, 'expected an object such as {"names": ["read"], "groups": ["files"]}.');
  for (const key of Object.keys(value)) {
    if (key !== 'names' && key !== 'groups')
      throw invalid(`${path}.${key}`, 'unknown key; only "names" and "groups" are allowed.');
  }
  const list = (key: 'names' | 'groups', pattern: RegExp, what: string): string[] => {
    const raw = value[key] ?? [];
    if (!Array.isArray(raw)) throw invalid(`${path}.${key}`, `expected an array of ${what}.`);
    if (raw.length > TOOL_VIEW_LIMITS.authorised)
      throw invalid(`${path}.${key}`, `at most ${TOOL_VIEW_LIMITS.authorised} entries.`);
    const seen = new Set<string>();
    raw.forEach((item, i) => {
      if (typeof item !== 'string' || !pattern.test(item)) throw invalid(`${path}.${key}[${i}]`, `expected ${what}.`);
      if (seen.has(item)) {
        throw new HarnessError(
          'E_TOOL_VIEW_DUPLICATE',
          `At ${path}.${key}[${i}]: "${item}" is listed twice. Remove the second entry.`,
          { path: `${path}.${key}[${i}]`, name: item },
        );
      }
      seen.add(item);
    });
    return raw as string[];
  };
  return {
    names: list('names', TOOL_NAME_PATTERN, 'a tool name (1–64 ASCII letters, digits, "-" or "_")'),
    groups: list(
      'groups',
      GROUP_PATTERN,
      'a group: "files", "search", "web", "memory", "skills", "shell", "bridge", "plugin:<id>" or "mcp:<server>"',
    ),
  };
}
