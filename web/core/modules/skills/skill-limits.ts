// Seed 000 §9: at most 100 skills per root and 1000 entries in a root folder, files up to 64000 bytes, names of
// 1–64 ASCII letters/digits/-/_, descriptions up to 1024 characters, duplicate names are errors.
export const SKILLS_MAX_PER_ROOT = 100;
export const SKILLS_MAX_ROOT_ENTRIES = 1000;
export const SKILL_MAX_FILE_BYTES = 64_000;
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const SKILL_MAX_DESCRIPTION_CHARS = 1024;
/** Files listed after a skill's body by skill_load. */
export const SKILL_MAX_LISTED_FILES = 100;
export const SKILL_FILE = 'SKILL.md';
/** Workspace roots searched by default (seed 000 §9); other roots must be configured explicitly. */
export const WORKSPACE_SKILL_ROOTS = ['.agents/skills', '.i/skills'] as const;
export const SKILLS_MAX_CONFIGURED_ROOTS = 32;
