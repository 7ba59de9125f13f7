// Strings of Settings → Agent → Skills (what the skills module finds and its problems), merged into agentEn / agentZh.
export const agentSkillsEn = {
  'agentSkills.title': 'Skills',
  'agentSkills.pickWorkspace': 'Open a workspace (or choose one in “Applies to”) to see its skills.',
  'agentSkills.forWorkspace': 'In workspace “{name}” (.agents/skills and .i/skills)',
  'agentSkills.reading': 'Reading the skill folders…',
  'agentSkills.noAccess': 'The folder is not accessible now. Open the workspace and restore access to see its skills.',
  'agentSkills.found': '{count} skill(s): {names}.',
  'agentSkills.none': 'No skills found. A skill is a folder with a SKILL.md inside .agents/skills or .i/skills.',
  'agentSkills.problems': 'Skill problems',
  'agentSkills.check': 'Check again',
} as const;

export const agentSkillsZh: Record<keyof typeof agentSkillsEn, string> = {
  'agentSkills.title': '技能',
  'agentSkills.pickWorkspace': '打开一个工作区（或在“适用于”中选择）以查看其技能。',
  'agentSkills.forWorkspace': '工作区“{name}”中（.agents/skills 与 .i/skills）',
  'agentSkills.reading': '正在读取技能文件夹…',
  'agentSkills.noAccess': '目前无法访问该文件夹。打开工作区并恢复访问后即可查看其技能。',
  'agentSkills.found': '{count} 个技能：{names}。',
  'agentSkills.none': '未找到技能。技能是 .agents/skills 或 .i/skills 中含有 SKILL.md 的文件夹。',
  'agentSkills.problems': '技能问题',
  'agentSkills.check': '重新检查',
};
