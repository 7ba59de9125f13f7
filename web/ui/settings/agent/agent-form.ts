// The Settings → Agent form state and its conversion to and from the stored object (web/core/app-agent
// agent-settings). Pure: validation stays with the modules' own parsers (checkAgentModules on save).
import type { AgentModules, StoredModules } from '../../../core/page';
import { HarnessError } from '../../../core/contracts';
import type { CacheMode, ModuleName, ProfileName } from '../../../core/page';

export type CacheChoice = CacheMode | 'off';
export const CACHE_CHOICES: readonly CacheChoice[] = ['observe', 'openai', 'anthropic', 'off'];

export interface AgentForm {
  profile: ProfileName;
  disabled: ModuleName[];
  compactEnabled: boolean;
  /** As typed; checked by the compaction parser on save. */
  keepRecent: string;
  images: 'keep' | 'drop';
  cache: CacheChoice;
  /** '' = the built-in prompt. */
  prompt: string;
  /** cache.json `namespace` and `target_hit_ratio`, as typed. */
  cacheNamespace: string;
  targetHitRatio: string;
  /** Cache fields the form does not show (stats, retention…), kept as they were. */
  cacheRest: AgentModules['cache'];
  /** approval.json deny_tools: names separated by commas, spaces or lines. */
  denyTools: string;
  /** '' = the built-in compaction prompt. */
  compactPrompt: string;
  /** web.json `search` as JSON text; '' = no web_search tool. */
  webSearch: string;
  /** Modules the paired i-bridge serves (bindings: {"<module>": {"worker": "bridge"}}). */
  bound: ModuleName[];
  /** Other workspaces whose folders lend their skills (skill_workspaces). */
  skillWorkspaces: string[];
}

export function formFromModules(m: AgentModules): AgentForm {
  return {
    profile: m.selection.profile,
    disabled: [...m.selection.disabled],
    compactEnabled: m.compact.enabled,
    keepRecent: String(m.compact.keep_recent),
    images: m.compact.images,
    cache: m.cache.enabled ? m.cache.mode : 'off',
    prompt: m.systemPrompt ?? '',
    cacheNamespace: m.cache.namespace,
    targetHitRatio: String(m.cache.target_hit_ratio),
    cacheRest: m.cache,
    denyTools: m.denyTools.join(', '),
    compactPrompt: m.compactPrompt ?? '',
    webSearch: m.webSearch ? JSON.stringify(m.webSearch, null, 2) : '',
    bound: Object.keys(m.bindings) as ModuleName[],
    skillWorkspaces: [...m.skillWorkspaces],
  };
}

/** A number field left as typed so the parser names the problem (`agent.compact.keep_recent`). */
const numberOrText = (text: string): number | string => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text);
const ratioOrText = (text: string): number | string => (/^\s*(0|1|0?\.\d+|1\.0*)\s*$/.test(text) ? Number(text) : text);

/** The web_search JSON as typed; a syntax error names the field (the shape is checked by the web.json parser). */
function webSearchOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HarnessError(
      'E_AGENT_MODULES_INVALID',
      `At agent.web_search: not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix the syntax, or empty the field for no web_search.`,
    );
  }
}

export function modulesFromForm(f: AgentForm): StoredModules {
  const { retention, ttl, ...rest } = f.cacheRest;
  const mode = f.cache === 'off' ? rest.mode : f.cache;
  const cache = {
    ...rest,
    namespace: f.cacheNamespace.trim(),
    target_hit_ratio: ratioOrText(f.targetHitRatio) as number,
    enabled: f.cache !== 'off',
    mode,
    ...(mode === 'openai' && retention ? { retention } : {}),
    ...(mode === 'anthropic' && ttl ? { ttl } : {}),
  };
  return {
    selection: { profile: f.profile, disabled: [...f.disabled] },
    compact: { enabled: f.compactEnabled, keep_recent: numberOrText(f.keepRecent) as number, images: f.images },
    cache,
    ...(f.prompt !== '' ? { system_prompt: f.prompt } : {}),
    ...(f.denyTools.trim() !== '' ? { deny_tools: f.denyTools.split(/[\s,]+/).filter(Boolean) } : {}),
    ...(f.compactPrompt !== '' ? { compact_prompt: f.compactPrompt } : {}),
    ...(f.webSearch.trim() !== '' ? { web_search: webSearchOf(f.webSearch) as StoredModules['web_search'] } : {}),
    ...(f.bound.length ? { bindings: Object.fromEntries(f.bound.map((m) => [m, { worker: 'bridge' as const }])) } : {}),
    ...(f.skillWorkspaces.length ? { skill_workspaces: [...f.skillWorkspaces] } : {}),
  };
}
