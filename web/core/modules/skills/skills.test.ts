import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import { discoverSkills, validateSkillsConfig, workspaceSkillRoots } from './index';
import { configuredSkillRoots } from './node-skill-roots';
import { defineSkillsSuite } from './skills-suite';

defineSkillsSuite('Node fs over a temp folder', async () => {
  const base = await mkdtemp(join(tmpdir(), 'i-skills-'));
  return {
    fs: await createNodeWorkspaceFs({ root: base, access: 'read-write' }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
});

describe('seed limits on skill roots', () => {
  it('allows 100 skills per root and 1000 entries, and refuses 101 skills and 1001 entries', async () => {
    const base = await mkdtemp(join(tmpdir(), 'i-skill-limits-'));
    try {
      const make = async (dir: string, skills: number, files: number) => {
        for (let i = 0; i < skills; i++) {
          await mkdir(join(base, dir, `s${i}`), { recursive: true });
          await writeFile(
            join(base, dir, `s${i}`, 'SKILL.md'),
            `---\nname: ${dir.replace(/\W/g, '')}${i}\ndescription: x\n---\n`,
          );
        }
        for (let i = 0; i < files; i++) await writeFile(join(base, dir, `f${i}.txt`), '');
      };
      await make('.agents/skills', 100, 900);
      await make('.i/skills', 101, 0);
      const fs = await createNodeWorkspaceFs({ root: base, access: 'read' });
      const first = await discoverSkills(workspaceSkillRoots(fs));
      expect(first.skills).toHaveLength(100);
      expect(first.problems.map((p) => p.code)).toEqual(['E_SKILL_TOO_MANY']);
      await writeFile(join(base, '.agents/skills', 'one-more.txt'), '');
      expect((await discoverSkills(workspaceSkillRoots(fs))).problems.map((p) => p.code)).toEqual([
        'E_SKILL_ROOT_TOO_MANY_ENTRIES',
        'E_SKILL_TOO_MANY',
      ]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('configured skill roots (skills.json)', () => {
  it('resolves relative roots against the config file, reads them read-only, and reports a missing root', async () => {
    const base = await mkdtemp(join(tmpdir(), 'i-skill-roots-'));
    try {
      await mkdir(join(base, 'config', 'my-skills', 'lint'), { recursive: true });
      await writeFile(
        join(base, 'config', 'my-skills', 'lint', 'SKILL.md'),
        '---\nname: lint\ndescription: Lint things.\n---\nRun the linter.\n',
      );
      const config = validateSkillsConfig({ roots: ['my-skills', join(base, 'absent')] });
      const roots = await configuredSkillRoots(config, join(base, 'config', 'skills.json'));
      const ws = await createNodeWorkspaceFs({ root: base, access: 'read' });
      const { skills, problems } = await discoverSkills([...workspaceSkillRoots(ws), ...roots]);
      expect(skills.map((s) => [s.name, s.source])).toEqual([
        ['lint', `config:${join(base, 'config', 'my-skills')}/lint`],
      ]);
      expect(problems.map((p) => p.code)).toEqual(['E_SKILL_ROOT_MISSING']);
      expect(roots[0]!.fs.access).toBe('read');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('validates skills.json strictly', () => {
    expect(() => validateSkillsConfig({ roots: ['a'], extra: true })).toThrow('At skills.json.extra: unknown key');
    expect(() => validateSkillsConfig({ roots: [''] })).toThrow('At skills.json.roots.0');
    expect(() => validateSkillsConfig({ roots: 'a' })).toThrow('At skills.json.roots');
  });
});
