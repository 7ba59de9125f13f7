// The Settings → Agent form state and its conversion to and from the stored object (web/core/app-agent
// agent-settings). Pure: validation stays with the modules' own parsers (checkAgentModules on save).
import type { AgentModules, StoredModules } from '../../../core/app-agent/agent-settings';
import type { CacheMode, ModuleName, ProfileName } from '../../../core/modules';

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
  /** Cache fields the form does not show (namespace, retention…), kept as they were. */
  cacheRest: AgentModules['cache'];
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
    cacheRest: m.cache,
  };
}

/** A number field left as typed so the parser names the problem (`agent.compact.keep_recent`). */
const numberOrText = (text: string): number | string => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : text);

export function modulesFromForm(f: AgentForm): StoredModules {
  const { retention, ttl, ...rest } = f.cacheRest;
  const mode = f.cache === 'off' ? rest.mode : f.cache;
  const cache = { ...rest, enabled: f.cache !== 'off', mode, ...(mode === 'openai' && retention ? { retention } : {}), ...(mode === 'anthropic' && ttl ? { ttl } : {}) };
  return {
    selection: { profile: f.profile, disabled: [...f.disabled] },
    compact: { enabled: f.compactEnabled, keep_recent: numberOrText(f.keepRecent) as number, images: f.images },
    cache,
    ...(f.prompt !== '' ? { system_prompt: f.prompt } : {}),
  };
}
