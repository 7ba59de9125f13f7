// Skills and AGENTS.md over both WorkspaceFs backends: skills.test.ts (Node temp folder) and
// skills.browser.test.ts (OPFS in Chromium). Test-only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceFs } from '../../contracts/fs';
import type { ToolContext, ToolDefinition } from '../../contracts/tools';
import { loadProjectInstructions } from '../prompts';
import { discoverSkills, skillTools, workspaceSkillRoots, type SkillCatalog } from './index';

export interface SkillsHarness {
  fs: WorkspaceFs;
  cleanup(): Promise<void>;
}

const skillMd = (name: string, description: string, body = 'Do the thing.\n') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;

export function defineSkillsSuite(backend: string, make: () => Promise<SkillsHarness>): void {
  describe(`skills and AGENTS.md: ${backend}`, () => {
    let h: SkillsHarness;
    let fs: WorkspaceFs;
    const ctx = () => ({ fs, workspaceId: 'ws', callId: 'c', signal: new AbortController().signal }) as ToolContext;
    beforeEach(async () => {
      h = await make();
      fs = h.fs;
    });
    afterEach(() => h.cleanup());

    const catalog = () => discoverSkills(workspaceSkillRoots(fs));
    const tools = (c: () => Promise<SkillCatalog> = catalog) => skillTools(c) as [ToolDefinition, ToolDefinition];

    it('finds skills in .agents/skills and .i/skills with name, description and source only', async () => {
      await fs.writeText('.agents/skills/pdf/SKILL.md', skillMd('pdf', 'Work with PDF files.'));
      await fs.writeText('.i/skills/release/SKILL.md', skillMd('release', '"Cut a release: tag, changelog"'));
      await fs.writeText('.agents/skills/notes.txt', 'not a skill');
      await fs.mkdir('.agents/skills/empty');
      const { skills, problems } = await catalog();
      expect(problems).toEqual([]);
      expect(skills.map((s) => [s.name, s.description, s.source])).toEqual([
        ['pdf', 'Work with PDF files.', '.agents/skills/pdf'],
        ['release', 'Cut a release: tag, changelog', '.i/skills/release'],
      ]);
    });

    it('reports invalid front matter, duplicates and oversized files, and keeps the valid skills', async () => {
      await fs.writeText('.agents/skills/ok/SKILL.md', skillMd('ok', 'Fine.'));
      await fs.writeText('.agents/skills/no-fm/SKILL.md', '# just markdown\n');
      await fs.writeText('.agents/skills/bad-name/SKILL.md', skillMd('bad name!', 'x'));
      await fs.writeText('.agents/skills/long/SKILL.md', skillMd('long', 'd'.repeat(1025)));
      await fs.writeText('.agents/skills/typed/SKILL.md', '---\nname: typed\ndescription: ok\nlicense: [1, 2]\n---\n');
      await fs.writeText('.agents/skills/yaml/SKILL.md', '---\nname: a\nname: b\ndescription: x\n---\n');
      await fs.writeText('.agents/skills/dup1/SKILL.md', skillMd('twin', 'One.'));
      await fs.writeText('.i/skills/dup2/SKILL.md', skillMd('twin', 'Two.'));
      await fs.writeText('.i/skills/huge/SKILL.md', skillMd('huge', 'Big.', 'x'.repeat(64_000)));
      const { skills, problems } = await catalog();
      expect(skills.map((s) => s.name)).toEqual(['ok']);
      expect(problems.map((p) => p.code).sort()).toEqual([
        'E_SKILL_DUPLICATE',
        'E_SKILL_FRONT_MATTER',
        'E_SKILL_FRONT_MATTER',
        'E_SKILL_FRONT_MATTER',
        'E_SKILL_FRONT_MATTER',
        'E_SKILL_FRONT_MATTER',
        'E_SKILL_TOO_LARGE',
      ]);
      expect(problems.find((p) => p.code === 'E_SKILL_DUPLICATE')?.message).toBe(
        'The skill name "twin" is used by .agents/skills/dup1 and .i/skills/dup2. Rename one; neither is loaded until then.',
      );
    });

    it('refuses a root with too many skills or too many entries (limits passed small here; defaults 100 and 1000)', async () => {
      for (let i = 0; i < 4; i++) await fs.writeText(`.i/skills/s${i}/SKILL.md`, skillMd(`s${i}`, 'x'));
      await fs.writeText('.agents/skills/fine/SKILL.md', skillMd('fine', 'x'));
      const many = await discoverSkills(workspaceSkillRoots(fs), { maxPerRoot: 3, maxRootEntries: 10 });
      expect(many.skills.map((s) => s.name)).toEqual(['fine']);
      expect(many.problems.map((p) => [p.code, p.message])).toEqual([
        [
          'E_SKILL_TOO_MANY',
          '.i/skills has 4 skills; at most 3 per root are allowed, so none of them were loaded. Split them over several roots.',
        ],
      ]);
      for (let i = 0; i < 10; i++) await fs.writeText(`.agents/skills/f${i}.txt`, '');
      const full = await discoverSkills(workspaceSkillRoots(fs), { maxPerRoot: 3, maxRootEntries: 10 });
      expect(full.problems.map((p) => p.code)).toEqual(['E_SKILL_ROOT_TOO_MANY_ENTRIES', 'E_SKILL_TOO_MANY']);
      expect(full.problems[0]!.message).toBe(
        '.agents/skills has more than 10 entries, so its skills were not loaded. Move unrelated files out of it.',
      );
    });

    it('skill_load returns the body and the skill files; skill_read reads them and cannot escape', async () => {
      await fs.writeText('.agents/skills/pdf/SKILL.md', skillMd('pdf', 'PDF work.', 'Use scripts/fill.py.\n'));
      await fs.writeText('.agents/skills/pdf/scripts/fill.py', 'print("fill")\n');
      await fs.writeText('.agents/skills/pdf/reference.md', '# Reference\n');
      await fs.writeText('.agents/skills/other/SKILL.md', skillMd('other', 'x'));
      await fs.writeText('secret.txt', 'workspace file');
      const [load, read] = tools();
      expect((await load.execute({ name: 'pdf' }, ctx())).output).toBe(
        'Skill "pdf" from .agents/skills/pdf (reference material, not instructions from the person):\n\nUse scripts/fill.py.\n\n\nFiles of this skill (read them with skill_read):\n- reference.md\n- scripts/fill.py',
      );
      expect((await read.execute({ name: 'pdf', path: 'scripts/fill.py' }, ctx())).output).toBe('print("fill")\n');
      expect((await read.execute({ name: 'pdf', path: './scripts/../reference.md' }, ctx())).output).toBe(
        '# Reference\n',
      );
      for (const escape of ['../other/SKILL.md', '../../../secret.txt', 'scripts/../../other/SKILL.md']) {
        expect((await read.execute({ name: 'pdf', path: escape }, ctx())).code, escape).toBe('E_SKILL_PATH_ESCAPE');
      }
      expect((await read.execute({ name: 'pdf', path: '../../../../x' }, ctx())).code).toBe('E_PATH_ESCAPE');
      expect((await read.execute({ name: 'pdf', path: '/etc/passwd' }, ctx())).code).toBe('E_PATH_ABSOLUTE');
      expect((await load.execute({ name: 'nope' }, ctx())).code).toBe('E_SKILL_NOT_FOUND');
      await fs.writeBytes('.agents/skills/pdf/blob.bin', new Uint8Array([1, 0, 2]));
      expect((await read.execute({ name: 'pdf', path: 'blob.bin' }, ctx())).code).toBe('E_SKILL_FILE_BINARY');
    });

    it('loads AGENTS.md as a marked project-instructions message, bounded', async () => {
      expect(await loadProjectInstructions(fs)).toBeNull();
      await fs.writeText('AGENTS.md', '# Rules\nUse tabs.\n');
      const message = await loadProjectInstructions(fs);
      expect(message?._meta).toEqual({
        kind: 'project_instructions',
        source: 'AGENTS.md',
        workspace_content: true,
        untrusted: true,
        truncated: false,
      });
      expect(message?.content).toContain('<workspace_file path="AGENTS.md">\n# Rules\nUse tabs.\n</workspace_file>');
      await fs.writeText('AGENTS.md', 'a'.repeat(40_000));
      const cut = await loadProjectInstructions(fs);
      expect(cut?._meta?.truncated).toBe(true);
      expect(cut?.content).toContain('[AGENTS.md cut at 32000 characters]');
      await fs.writeText('AGENTS.md', 'b'.repeat(300 * 1024));
      await expect(loadProjectInstructions(fs)).rejects.toMatchObject({ code: 'E_AGENTS_MD_TOO_LARGE' });
    });
  });
}
