// The bound modules of headless `i` (bindings.json, seed 000 §1) as manifest entries for the private i-bridge:
// plugins.json decides which modules are enabled, bindings.json which of them a worker replaces, web.json's search
// gives web_search its schema. A binding without cwd runs in config_dir (the folder of bindings.json), the way a
// manifest entry without cwd runs in the manifest's folder. Node-only.
import { join } from 'node:path';
import { readJsonFile } from '../../../plugin-host/fs/node';
import {
  boundModuleEntries,
  DEFAULT_SELECTION,
  validateBindings,
  validateProfileSelection,
  type BoundEntries,
} from './profiles';
import { validateWebConfig } from './web';

export async function loadBoundModules(configDir: string): Promise<BoundEntries> {
  const bindingsFile = join(configDir, 'bindings.json');
  const rawBindings = await readJsonFile(bindingsFile);
  if (rawBindings === undefined) return { tools: [], hooks: [] };
  const bindings = validateBindings(rawBindings, bindingsFile);
  const pluginsFile = join(configDir, 'plugins.json');
  const rawSelection = await readJsonFile(pluginsFile);
  const selection =
    rawSelection === undefined ? DEFAULT_SELECTION : validateProfileSelection(rawSelection, pluginsFile);
  const webFile = join(configDir, 'web.json');
  const web = await readJsonFile(webFile);
  const webSearch = web === undefined ? undefined : validateWebConfig(web, webFile).search;
  const entries = boundModuleEntries(selection, bindings, { at: bindingsFile, ...(webSearch ? { webSearch } : {}) });
  const inConfigDir = <T extends { cwd?: string }>(e: T): T => ({ ...e, cwd: e.cwd ?? configDir });
  return { tools: entries.tools.map(inConfigDir), hooks: entries.hooks.map(inConfigDir) };
}
