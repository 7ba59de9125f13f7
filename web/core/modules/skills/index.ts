export * from './skill-limits';
export { parseSkillFile, type SkillFrontMatter } from './front-matter';
export {
  discoverSkills,
  workspaceSkillRoots,
  type Skill,
  type SkillCatalog,
  type SkillLimits,
  type SkillRoot,
} from './discover-skills';
export { resolveSkillPath, skillTools, type CatalogSource } from './skill-tools';
export { validateSkillsConfig, type SkillsConfig } from './skills-config';
