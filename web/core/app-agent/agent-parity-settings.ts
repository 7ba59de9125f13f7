// The parts of Settings → Agent that give the app what headless `i` reads from its config files (seed 000 §4):
// approval.json `deny_tools`, the compaction prompt (compact.json `prompt` / prompts.json `compact`; the app has no
// prompt files, so it stores the text) and web.json `search` (its credential stays a secret *name*, resolved in the
// secrets store when a search runs), bindings.json (a module the paired i-bridge serves) and skills.json `roots`
// (other workspaces whose folders hold skills). Validated strictly, with their path, by the same parsers headless `i` uses.
import { HarnessError } from '../contracts';
import { checkSkillWorkspaces } from './skill-workspaces';
import {
  checkCompactPrompt,
  validateAppBindings,
  validateWebSearchConfig,
  type Bindings,
  type WebSearchConfig,
} from '../modules';

export interface ParityModules {
  /** Tool names that never run, whatever the mode, a rule or yolo says (approval.json deny_tools). */
  denyTools: string[];
  /** The compaction prompt's text (1–32000 characters); null: the built-in prompt. */
  compactPrompt: string | null;
  /** web.json `search`: the web_search tool's service; null: no web_search tool. */
  webSearch: WebSearchConfig | null;
  /** Modules the paired i-bridge serves instead of the built-in ones (bindings.json; no fallback). */
  bindings: Bindings;
  /** Other workspaces whose folders hold skill folders (skills.json `roots`; skill-workspaces.ts). */
  skillWorkspaces: string[];
}

export interface StoredParity {
  deny_tools?: string[];
  compact_prompt?: string;
  web_search?: WebSearchConfig;
  bindings?: Bindings;
  skill_workspaces?: string[];
}

export const PARITY_KEYS = ['deny_tools', 'compact_prompt', 'web_search', 'bindings', 'skill_workspaces'] as const;
export const DEFAULT_PARITY: ParityModules = {
  denyTools: [],
  compactPrompt: null,
  webSearch: null,
  bindings: {},
  skillWorkspaces: [],
};

export const MAX_DENY_TOOLS = 256;
/** Built-in, plugin, bridge and MCP tool names (seed 000 §1: 1–64 ASCII letters, digits, - and _; MCP adds . and :). */
const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

const fail = (at: string, message: string) =>
  new HarnessError('E_AGENT_MODULES_INVALID', `At ${at}: ${message}`, { at });

function checkDenyTools(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || value.length > MAX_DENY_TOOLS)
    throw fail(at, `expected a list of at most ${MAX_DENY_TOOLS} tool names.`);
  const seen = new Set<string>();
  return value.map((name, i) => {
    if (typeof name !== 'string' || !TOOL_NAME.test(name))
      throw fail(
        `${at}.${i}`,
        `${JSON.stringify(name)} is not a tool name (letters, digits, "_", "-", "." or ":"; up to 128).`,
      );
    if (seen.has(name)) throw fail(`${at}.${i}`, `"${name}" is listed twice.`);
    seen.add(name);
    return name;
  });
}

/** The parity keys of a stored Settings → Agent object (others are checked by checkAgentModules). */
export function checkParityModules(v: Record<string, unknown>, at: string): ParityModules {
  return {
    denyTools: v.deny_tools === undefined ? [] : checkDenyTools(v.deny_tools, `${at}.deny_tools`),
    compactPrompt:
      v.compact_prompt === undefined
        ? null
        : checkCompactPrompt(
            typeof v.compact_prompt === 'string' ? v.compact_prompt : '',
            `At ${at}.compact_prompt: the compaction prompt`,
          ),
    webSearch: v.web_search === undefined ? null : validateWebSearchConfig(v.web_search, `${at}.web_search`),
    bindings: v.bindings === undefined ? {} : validateAppBindings(v.bindings, `${at}.bindings`),
    skillWorkspaces:
      v.skill_workspaces === undefined ? [] : checkSkillWorkspaces(v.skill_workspaces, `${at}.skill_workspaces`),
  };
}

/** The stored form (absent parts left out). */
export function storedParityOf(m: ParityModules): StoredParity {
  return {
    ...(m.denyTools.length ? { deny_tools: [...m.denyTools] } : {}),
    ...(m.compactPrompt !== null ? { compact_prompt: m.compactPrompt } : {}),
    ...(m.webSearch ? { web_search: m.webSearch } : {}),
    ...(Object.keys(m.bindings).length ? { bindings: { ...m.bindings } } : {}),
    ...(m.skillWorkspaces.length ? { skill_workspaces: [...m.skillWorkspaces] } : {}),
  };
}
