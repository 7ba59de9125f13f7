// skills.json (seed 000 §4): `{"roots": ["/absolute/root", "relative/root"]}`; relative roots are relative to the
// config file's folder. Validation only; node-skill-roots.ts turns the roots into read-only WorkspaceFs roots.
import { HarnessError } from '../../contracts';
import { SKILLS_MAX_CONFIGURED_ROOTS } from './skill-limits';

export interface SkillsConfig {
  roots: string[];
}

export function validateSkillsConfig(value: unknown, at = 'skills.json'): SkillsConfig {
  const fail = (where: string, why: string) =>
    new HarnessError('E_SKILLS_CONFIG_INVALID', `At ${where}: ${why}`, { at: where });
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail(at, 'expected {"roots": ["..."]}.');
  const v = value as Record<string, unknown>;
  for (const k of Object.keys(v)) if (k !== 'roots') throw fail(`${at}.${k}`, 'unknown key; only "roots" is allowed.');
  if (!Array.isArray(v.roots) || v.roots.length > SKILLS_MAX_CONFIGURED_ROOTS)
    throw fail(`${at}.roots`, `expected an array of at most ${SKILLS_MAX_CONFIGURED_ROOTS} folder paths.`);
  v.roots.forEach((r, i) => {
    if (typeof r !== 'string' || r.trim() === '' || r.includes('\u0000'))
      throw fail(`${at}.roots.${i}`, 'expected a non-empty folder path.');
  });
  return { roots: [...(v.roots as string[])] };
}
