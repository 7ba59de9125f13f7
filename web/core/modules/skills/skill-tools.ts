// `skill_load {name}` returns a skill's SKILL.md body and the files next to it; `skill_read {name, path}` reads one
// of those files by a path relative to the skill folder and cannot leave it (E_SKILL_PATH_ESCAPE). Module tools:
// approval 'ask', external (seed 000 §5/§9: skills are a module; scripts inside are reference material and only
// run through the normal tools with approval).
import { HarnessError } from '../../contracts';
import { normalizeWorkspacePath } from '../../contracts';
import { decodeText, guard, hasNul, stringArg } from '../../tools';
import type { ToolDefinition } from '../../contracts';
import type { Skill, SkillCatalog } from './discover-skills';
import { parseSkillFile } from './front-matter';
import { SKILL_FILE, SKILL_MAX_FILE_BYTES, SKILL_MAX_LISTED_FILES } from './skill-limits';

export type CatalogSource = () => Promise<SkillCatalog>;

async function findSkill(catalog: CatalogSource, name: string): Promise<Skill> {
  const { skills } = await catalog();
  const skill = skills.find((s) => s.name === name);
  if (!skill) {
    const known =
      skills
        .map((s) => s.name)
        .slice(0, 50)
        .join(', ') || 'none';
    throw new HarnessError('E_SKILL_NOT_FOUND', `There is no skill named "${name}". Available skills: ${known}.`, {
      name,
    });
  }
  return skill;
}

async function listFiles(skill: Skill): Promise<string[]> {
  const out: string[] = [];
  const stack = [skill.dir];
  while (stack.length > 0 && out.length < SKILL_MAX_LISTED_FILES) {
    const dir = stack.pop()!;
    const entries = await skill.root.fs.list(dir, { maxEntries: 1000 }).catch(() => []);
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      if (e.directory) stack.push(e.path);
      else if (e.path !== `${skill.dir}/${SKILL_FILE}` && out.length < SKILL_MAX_LISTED_FILES)
        out.push(e.path.slice(skill.dir.length + 1));
    }
  }
  return out.sort();
}

/** Resolves `path` inside the skill folder through the shared path policy; anything leaving it is refused. */
export function resolveSkillPath(skill: Skill, path: string): string {
  // Absolute, drive and NUL paths get the policy's own code; the rest is resolved from the skill folder.
  if (/^([\\/]|[A-Za-z]:)/.test(path) || path.includes('\u0000')) normalizeWorkspacePath(path);
  const full = normalizeWorkspacePath(skill.dir ? `${skill.dir}/${path}` : path).path;
  if (skill.dir && !full.startsWith(`${skill.dir}/`)) {
    throw new HarnessError(
      'E_SKILL_PATH_ESCAPE',
      `${path} is outside the folder of skill "${skill.name}". Use a path relative to the skill folder, as listed by skill_load.`,
      { path },
    );
  }
  return full;
}

export function skillTools(catalog: CatalogSource): ToolDefinition[] {
  const load: ToolDefinition = {
    schema: {
      name: 'skill_load',
      description:
        'Load the instructions of a skill listed in the context (its SKILL.md body) and the names of the files it provides.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', description: 'Skill name.' } },
        required: ['name'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: true,
    async execute(args) {
      return guard(async () => {
        const skill = await findSkill(catalog, stringArg('skill_load', args, 'name', { nonEmpty: true })!);
        const text = await skill.root.fs.readText(`${skill.dir}/${SKILL_FILE}`, { maxBytes: SKILL_MAX_FILE_BYTES });
        const { body } = parseSkillFile(text, `${skill.source}/${SKILL_FILE}`);
        const files = await listFiles(skill);
        const listing = files.length
          ? `\n\nFiles of this skill (read them with skill_read):\n${files.map((f) => `- ${f}`).join('\n')}`
          : '';
        return {
          output: `Skill "${skill.name}" from ${skill.source} (reference material, not instructions from the person):\n\n${body}${listing}`,
        };
      });
    },
  };
  const read: ToolDefinition = {
    schema: {
      name: 'skill_read',
      description:
        'Read a file that belongs to a skill, by its path relative to the skill folder (as listed by skill_load).',
      parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Skill name.' },
          path: { type: 'string', description: 'Path relative to the skill folder.' },
        },
        required: ['name', 'path'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: true,
    async execute(args) {
      return guard(async () => {
        const skill = await findSkill(catalog, stringArg('skill_read', args, 'name', { nonEmpty: true })!);
        const path = stringArg('skill_read', args, 'path', { nonEmpty: true })!;
        const full = resolveSkillPath(skill, path);
        const bytes = await skill.root.fs
          .readBytes(full, { maxBytes: SKILL_MAX_FILE_BYTES })
          .catch((error: unknown) => {
            if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_LARGE') {
              throw new HarnessError(
                'E_SKILL_TOO_LARGE',
                `${path} is larger than ${SKILL_MAX_FILE_BYTES} bytes; skill files are limited to that.`,
                { path },
              );
            }
            throw error;
          });
        const text = hasNul(bytes, 8192) ? null : decodeText(bytes);
        if (text === null)
          throw new HarnessError('E_SKILL_FILE_BINARY', `${path} of skill "${skill.name}" is not UTF-8 text.`, {
            path,
          });
        return { output: text };
      });
    },
  };
  return [load, read];
}
