// Seed 002 "授权集合内选择工具": which of the authorised tools the model sees in a request. A ToolSelector gets a
// snapshot of the authorised schemas and returns names only; `selectToolView` re-checks those names (each in the
// set, none twice), takes the schemas from the original set, and enforces the limits. Every failure is an error
// before the request is built: a view is never silently widened or narrowed. Visibility is all a view controls;
// a call still goes through argument validation, the approval gate and its guards.
import { HarnessError } from '../contracts';
import type { ToolSchema } from '../contracts';
import type { ToolRegistry } from '../tools';
import type { ToolViewConfig } from './config';
import { BUILTIN_GROUPS, groupOf } from './groups';
import { TOOL_VIEW_LIMITS, type ToolViewLimits } from './limits';

/** One authorised tool as a selector sees it. */
export interface ToolSnapshotEntry {
  readonly name: string;
  readonly description: string;
  readonly parameters: unknown;
  /** Host metadata (groups.ts); null: reachable by name only. */
  readonly group: string | null;
  readonly external: boolean;
}

/** Returns the names of the tools to show. It may throw a HarnessError to refuse its configuration. */
export type ToolSelector = (snapshot: readonly ToolSnapshotEntry[]) => readonly string[];

export interface ToolView {
  /** Built-in tools of the view, in the authorised set's order (a stable order keeps the prompt prefix cacheable). */
  tools: ToolSchema[];
  /** External tools (plugins, bridge, MCP) of the view, in the same order. */
  pluginTools: ToolSchema[];
  /** UTF-8 bytes of `[...tools, ...pluginTools]` as JSON. */
  bytes: number;
}

const sortedByName = (names: Iterable<string>) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * The default selector: every authorised tool sorted by name when there is no config; otherwise the union of the
 * explicit `names` and the members of `groups` (an empty config is an empty view). A name not in the set, a
 * group with no member in the set, or an entry given twice is an error saying what exists.
 */
export function groupedSelector(config?: ToolViewConfig | null): ToolSelector {
  return (snapshot) => {
    if (!config) return sortedByName(snapshot.map((t) => t.name));
    const byName = new Set(snapshot.map((t) => t.name));
    const chosen = new Set<string>();
    for (const name of config.names) {
      if (chosen.has(name)) throw duplicate(name, 'tool_view.names');
      if (!byName.has(name)) {
        throw new HarnessError(
          'E_TOOL_VIEW_UNKNOWN_NAME',
          `The tool view names "${name}", which is not among this turn's tools (${listed(sortedByName(byName))}). Remove it from the view, or enable what provides it.`,
          { name },
        );
      }
      chosen.add(name);
    }
    const groups = new Set<string>();
    for (const group of config.groups) {
      if (groups.has(group)) throw duplicate(group, 'tool_view.groups');
      groups.add(group);
      const members = snapshot.filter((t) => t.group === group);
      if (members.length === 0) {
        const present = sortedByName(new Set(snapshot.flatMap((t) => (t.group ? [t.group] : []))));
        throw new HarnessError(
          'E_TOOL_VIEW_UNKNOWN_GROUP',
          `The tool view names the group "${group}", which has no tool this turn (groups now: ${listed(present)}). Remove it from the view, or enable what provides it.`,
          { group },
        );
      }
      for (const m of members) chosen.add(m.name);
    }
    return sortedByName(chosen);
  };
}

/** The view for one request: selector names re-checked, schemas from the registry, limits enforced. */
export function selectToolView(
  registry: ToolRegistry,
  selector: ToolSelector = groupedSelector(),
  limits: ToolViewLimits = TOOL_VIEW_LIMITS,
): ToolView {
  const names = registry.names();
  if (names.length > limits.authorised) {
    throw new HarnessError(
      'E_TOOL_VIEW_TOO_MANY_AUTHORISED',
      `${names.length} tools are registered; at most ${limits.authorised} can be offered to a tool view. Disable plugins, bridge workers or MCP servers you do not need.`,
      { count: names.length, limit: limits.authorised },
    );
  }
  const snapshot: ToolSnapshotEntry[] = [];
  for (const name of names) {
    const def = registry.get(name)!;
    snapshot.push(
      Object.freeze({
        name,
        description: def.schema.description,
        parameters: def.schema.parameters,
        group: groupOf(def),
        external: def.external,
      }),
    );
  }
  const picked = selector(Object.freeze(snapshot));
  if (!Array.isArray(picked))
    throw new HarnessError(
      'E_TOOL_VIEW_INVALID',
      'The tool selector returned something other than a list of tool names. Fix the selector.',
      {},
    );
  const chosen = new Set<string>();
  for (const name of picked as unknown[]) {
    if (typeof name !== 'string' || !registry.has(name)) {
      throw new HarnessError(
        'E_TOOL_VIEW_UNKNOWN_NAME',
        `The tool selector chose ${typeof name === 'string' ? `"${name.slice(0, 80)}"` : 'a non-name'}, which is not among this turn's tools. A view can only show authorised tools; fix the selector or its configuration.`,
        { name: typeof name === 'string' ? name.slice(0, 80) : String(typeof name) },
      );
    }
    if (chosen.has(name)) throw duplicate(name, 'the selector result');
    chosen.add(name);
  }
  if (chosen.size > limits.visible) {
    throw new HarnessError(
      'E_TOOL_VIEW_TOO_MANY_VISIBLE',
      `The tool view has ${chosen.size} tools; a request shows at most ${limits.visible}. Narrow the view with names or groups (Settings → Agent, or "tool_view" in the model config).`,
      { count: chosen.size, limit: limits.visible },
    );
  }
  // Schemas come from the original set, never from what the selector saw or returned.
  const tools = registry.schemas((d) => !d.external && chosen.has(d.schema.name));
  const pluginTools = registry.schemas((d) => d.external && chosen.has(d.schema.name));
  const bytes = utf8Length(JSON.stringify([...tools, ...pluginTools]));
  if (bytes > limits.bytes) {
    throw new HarnessError(
      'E_TOOL_VIEW_TOO_LARGE',
      `The visible tools' schemas are ${bytes} bytes; a request carries at most ${limits.bytes}. Narrow the view, or disable the tools with the largest schemas.`,
      { bytes, limit: limits.bytes },
    );
  }
  return { tools, pluginTools, bytes };
}

/** The groups a person can pick from in a registry (fixed groups first, then external ones by name). */
export function groupsIn(registry: ToolRegistry): string[] {
  const found = new Set<string>();
  for (const name of registry.names()) {
    const group = groupOf(registry.get(name)!);
    if (group) found.add(group);
  }
  return [
    ...BUILTIN_GROUPS.filter((g) => found.has(g)),
    ...sortedByName([...found].filter((g) => !(BUILTIN_GROUPS as readonly string[]).includes(g))),
  ];
}

/** UTF-8 byte length without allocating the encoded bytes. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const duplicate = (name: string, where: string) =>
  new HarnessError('E_TOOL_VIEW_DUPLICATE', `"${name}" appears twice in ${where}. List each tool or group once.`, {
    name,
  });
const listed = (xs: string[]) =>
  xs.length === 0 ? 'none' : xs.slice(0, 20).join(', ') + (xs.length > 20 ? `, … ${xs.length - 20} more` : '');
