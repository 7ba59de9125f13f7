// Skill discovery over WorkspaceFs roots: `<root>/<folder>/SKILL.md`. Each root is a WorkspaceFs plus a folder in
// it, so the workspace roots (.agents/skills, .i/skills) and configured roots (a read-only Node WorkspaceFs over an
// absolute folder, see node-skill-roots.ts) share one path policy, and skill_read cannot leave a skill's folder.
// Problems never stop discovery: a bad root or skill is left out and reported with a stable code.
import { HarnessError, toErrorData, type ErrorData } from '../../contracts';
import type { WorkspaceFs } from '../../contracts';
import { parseSkillFile } from './front-matter';
import {
  SKILL_FILE,
  SKILL_MAX_FILE_BYTES,
  SKILLS_MAX_PER_ROOT,
  SKILLS_MAX_ROOT_ENTRIES,
  WORKSPACE_SKILL_ROOTS,
} from './skill-limits';

export interface SkillRoot {
  /** Shown to the model as the skill's source prefix, e.g. ".agents/skills" or "config:/home/me/skills". */
  source: string;
  fs: WorkspaceFs;
  /** Folder of the root inside `fs` ('' for the fs root). */
  path: string;
  /** Workspace roots may be absent; a configured root must exist. */
  optional: boolean;
}

export interface Skill {
  name: string;
  description: string;
  /** `<root source>/<folder>`: where the skill comes from. */
  source: string;
  root: SkillRoot;
  /** The skill's folder inside root.fs. */
  dir: string;
}

export interface SkillCatalog {
  skills: Skill[];
  problems: ErrorData[];
}

export interface SkillLimits {
  maxPerRoot?: number;
  maxRootEntries?: number;
}

export function workspaceSkillRoots(fs: WorkspaceFs): SkillRoot[] {
  return WORKSPACE_SKILL_ROOTS.map((path) => ({ source: path, fs, path, optional: true }));
}

const join = (a: string, b: string) => (a ? `${a}/${b}` : b);

async function scanRoot(
  root: SkillRoot,
  found: Skill[],
  problems: ErrorData[],
  limits: Required<SkillLimits>,
): Promise<void> {
  const stat = await root.fs.stat(root.path).catch(() => null);
  if (!stat?.directory) {
    if (!root.optional)
      problems.push({
        code: 'E_SKILL_ROOT_MISSING',
        message: `The configured skills root ${root.source} is not a folder. Fix skills.json or create it.`,
        data: { source: root.source },
      });
    return;
  }
  let entries;
  try {
    entries = await root.fs.list(root.path, { maxEntries: limits.maxRootEntries });
  } catch (error) {
    const data = toErrorData(error);
    if (data.code === 'E_FS_TOO_MANY_ENTRIES') {
      problems.push({
        code: 'E_SKILL_ROOT_TOO_MANY_ENTRIES',
        message: `${root.source} has more than ${limits.maxRootEntries} entries, so its skills were not loaded. Move unrelated files out of it.`,
        data: { source: root.source },
      });
    } else {
      problems.push({ ...data, data: { ...data.data, source: root.source } });
    }
    return;
  }
  const candidates: string[] = [];
  for (const entry of entries) {
    if (!entry.directory || entry.name.startsWith('.')) continue;
    const file = await root.fs.stat(join(entry.path, SKILL_FILE)).catch(() => null);
    if (file && !file.directory) candidates.push(entry.name);
  }
  if (candidates.length > limits.maxPerRoot) {
    problems.push({
      code: 'E_SKILL_TOO_MANY',
      message: `${root.source} has ${candidates.length} skills; at most ${limits.maxPerRoot} per root are allowed, so none of them were loaded. Split them over several roots.`,
      data: { source: root.source },
    });
    return;
  }
  for (const folder of candidates) {
    const dir = join(root.path, folder);
    const source = `${root.source}/${folder}`;
    try {
      const text = await root.fs
        .readText(join(dir, SKILL_FILE), { maxBytes: SKILL_MAX_FILE_BYTES })
        .catch((error: unknown) => {
          if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_LARGE') {
            throw new HarnessError(
              'E_SKILL_TOO_LARGE',
              `${source}/${SKILL_FILE} is larger than ${SKILL_MAX_FILE_BYTES} bytes. Move details into referenced files.`,
              { source },
            );
          }
          throw error;
        });
      const parsed = parseSkillFile(text, `${source}/${SKILL_FILE}`);
      found.push({ name: parsed.name, description: parsed.description, source, root, dir });
    } catch (error) {
      problems.push(toErrorData(error, 'E_SKILL_INVALID'));
    }
  }
}

/** Scans every root; duplicate names (across all roots) are errors and every copy is left out. */
export async function discoverSkills(roots: SkillRoot[], options: SkillLimits = {}): Promise<SkillCatalog> {
  const limits = {
    maxPerRoot: options.maxPerRoot ?? SKILLS_MAX_PER_ROOT,
    maxRootEntries: options.maxRootEntries ?? SKILLS_MAX_ROOT_ENTRIES,
  };
  const found: Skill[] = [];
  const problems: ErrorData[] = [];
  for (const root of roots) await scanRoot(root, found, problems, limits);
  const byName = new Map<string, Skill[]>();
  for (const skill of found) byName.set(skill.name, [...(byName.get(skill.name) ?? []), skill]);
  const skills: Skill[] = [];
  for (const [name, list] of byName) {
    if (list.length === 1) skills.push(list[0]!);
    else
      problems.push({
        code: 'E_SKILL_DUPLICATE',
        message: `The skill name "${name}" is used by ${list.map((s) => s.source).join(' and ')}. Rename one; neither is loaded until then.`,
        data: { name },
      });
  }
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills, problems };
}
