// Everything headless `i` needs from the modules, read from config_dir (seed 000 §4: `config_dir/<module>.json`):
// plugins.json (profile selection), bindings.json, web.json, skills.json, prompts.json (`system`; its `compact` is
// read by loadCompactConfig). Each is optional; a file that exists is read with the registry cap (2 MB) and
// validated strictly (errors name the file and the path). Node-only.
import { join } from 'node:path';
import { readJsonFile } from '../../../plugin-host/fs/node';
import type { WorkspaceFs } from '../contracts';
import type { ToolDefinition } from '../contracts';
import { builtinTools, moduleContext } from './builtin-tools';
import type { ContextState } from './context';
import type { MemoryStore } from './memory';
import { createNodeMemoryStore } from './memory/node-memory-store';
import {
  DEFAULT_SELECTION,
  validateBindings,
  validateProfileSelection,
  type Bindings,
  type ProfileSelection,
} from './profiles';
import { validateSystemPrompt } from './prompts';
import { readPromptFile, readPromptsConfig } from './prompts/node-prompts-config';
import { discoverSkills, validateSkillsConfig, workspaceSkillRoots, type SkillCatalog, type SkillRoot } from './skills';
import { configuredSkillRoots } from './skills/node-skill-roots';
import { validateWebConfig, type GetSecret, type WebConfig } from './web';
import { createNodeWebFetch } from './web/node-web-fetch';

export interface NodeModulesOptions {
  configDir: string;
  dataDir: string;
  /** The workspace of this run (skills roots inside it). */
  fs: WorkspaceFs;
  /** Resolves web_search credentials by name; defaults to the environment variable of that name. */
  getSecret?: GetSecret;
  env?: Record<string, string | undefined>;
}

export interface NodeModules {
  selection: ProfileSelection;
  bindings: Bindings;
  web: WebConfig;
  /** Core file tools plus the tools of enabled, unbound modules. */
  tools: ToolDefinition[];
  /** prompts.json `system`, loaded and validated; undefined for the embedded default. */
  systemPrompt?: string;
  memory: MemoryStore;
  skills: () => Promise<SkillCatalog>;
  /** What the context injector should show now (undefined members for disabled or bound modules). */
  contextState(workspaceId: string): Promise<ContextState>;
}

async function readConfig(configDir: string, name: string): Promise<{ file: string; value: unknown } | undefined> {
  const file = join(configDir, name);
  const value = await readJsonFile(file);
  return value === undefined ? undefined : { file, value };
}

async function loadPrompt(configDir: string): Promise<string | undefined> {
  const system = (await readPromptsConfig(configDir))?.system;
  return system === undefined
    ? undefined
    : validateSystemPrompt(await readPromptFile(system, 'system'), `The system prompt file ${system}`);
}

export async function loadNodeModules(options: NodeModulesOptions): Promise<NodeModules> {
  const { configDir } = options;
  const plugins = await readConfig(configDir, 'plugins.json');
  const selection = plugins ? validateProfileSelection(plugins.value, plugins.file) : DEFAULT_SELECTION;
  const bound = await readConfig(configDir, 'bindings.json');
  const bindings = bound ? validateBindings(bound.value, bound.file) : {};
  const webFile = await readConfig(configDir, 'web.json');
  const web = webFile ? validateWebConfig(webFile.value, webFile.file) : validateWebConfig({});
  const skillsFile = await readConfig(configDir, 'skills.json');
  const extraRoots: SkillRoot[] = skillsFile
    ? await configuredSkillRoots(validateSkillsConfig(skillsFile.value, skillsFile.file), skillsFile.file)
    : [];
  const systemPrompt = await loadPrompt(configDir);

  const env = options.env ?? process.env;
  const getSecret: GetSecret = options.getSecret ?? (async (name) => env[name] || undefined);
  const memory = createNodeMemoryStore({ dataDir: options.dataDir });
  const skills = () => discoverSkills([...workspaceSkillRoots(options.fs), ...extraRoots]);
  const tools = builtinTools({
    selection,
    bindings,
    memory,
    skills,
    webFetch: createNodeWebFetch({ allowPrivate: web.fetch.allow_private }),
    ...(web.search ? { webSearch: { config: web.search, getSecret } } : {}),
  });
  const context = moduleContext({ selection, bindings, memory, skills });
  const out: NodeModules = {
    selection,
    bindings,
    web,
    tools,
    memory,
    skills,
    contextState: context,
  };
  if (systemPrompt !== undefined) out.systemPrompt = systemPrompt;
  return out;
}
