// Configured skill roots in Node: each becomes a read-only WorkspaceFs over the absolute folder, so skill_read
// keeps the same path policy (no `..` escapes, links leaving the root refused). Node-only (modules/node.ts).
import { dirname, isAbsolute, resolve } from 'node:path';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { SkillRoot } from './discover-skills';
import type { SkillsConfig } from './skills-config';

/** Roots of skills.json; relative ones resolve against the config file's folder. A missing root is reported later. */
export async function configuredSkillRoots(config: SkillsConfig, configFile: string): Promise<SkillRoot[]> {
  const roots: SkillRoot[] = [];
  for (const raw of config.roots) {
    const abs = isAbsolute(raw) ? raw : resolve(dirname(configFile), raw);
    try {
      const fs = await createNodeWorkspaceFs({ root: abs, access: 'read' });
      roots.push({ source: `config:${abs}`, fs, path: '', optional: false });
    } catch {
      roots.push({ source: `config:${abs}`, fs: missingFs(abs), path: '', optional: false });
    }
  }
  return roots;
}

/** A stand-in for a root that could not be opened: stat says nothing is there, so discovery reports it. */
function missingFs(root: string): SkillRoot['fs'] {
  const gone = () => Promise.reject(new Error(`${root} is not available`));
  return {
    access: 'read',
    rootName: root,
    stat: async () => null,
    readBytes: gone,
    readText: gone,
    writeBytes: gone,
    writeText: gone,
    list: gone,
    remove: gone,
    mkdir: gone,
  };
}
