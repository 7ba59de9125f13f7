// Profiles (seed 000 §1): the portable selection `{"profile": "standard"|"full", "disabled": [...]}` (plugins.json).
// `full` is every module; `standard` is `full` without the Responses transformation (the responses,
// responses-budget and responses-compact modules). budget / responses-budget only meter the budget; compact /
// responses-compact also enable compaction. `search` registers no extra tool (glob/search are core tools).
import { HarnessError } from '../../contracts';

export const MODULE_NAMES = [
  'approval',
  'budget',
  'compact',
  'cache',
  'responses',
  'responses-budget',
  'responses-compact',
  'memory',
  'search',
  'skills',
  'web',
] as const;
export type ModuleName = (typeof MODULE_NAMES)[number];

export const PROFILE_NAMES = ['standard', 'full'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

const RESPONSES_MODULES: readonly ModuleName[] = ['responses', 'responses-budget', 'responses-compact'];

export const PROFILE_MODULES: Readonly<Record<ProfileName, readonly ModuleName[]>> = {
  full: MODULE_NAMES,
  standard: MODULE_NAMES.filter((m) => !RESPONSES_MODULES.includes(m)),
};

export interface ProfileSelection {
  profile: ProfileName;
  disabled: ModuleName[];
}

export const DEFAULT_SELECTION: ProfileSelection = { profile: 'standard', disabled: [] };

export function isModuleName(value: unknown): value is ModuleName {
  return typeof value === 'string' && (MODULE_NAMES as readonly string[]).includes(value);
}

const fail = (at: string, message: string) => new HarnessError('E_PROFILE_INVALID', `At ${at}: ${message}`, { at });

/** Strict validation of `{"profile", "disabled"}`: unknown keys, profiles and modules, and duplicates are refused. */
export function validateProfileSelection(value: unknown, at = 'plugins.json'): ProfileSelection {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw fail(at, 'expected an object like {"profile":"standard","disabled":[]}.');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v)) {
    if (key !== 'profile' && key !== 'disabled')
      throw fail(`${at}.${key}`, 'unknown key; only "profile" and "disabled" are allowed.');
  }
  const profile = v.profile ?? 'standard';
  if (typeof profile !== 'string' || !(PROFILE_NAMES as readonly string[]).includes(profile)) {
    throw fail(`${at}.profile`, `expected "standard" or "full", got ${JSON.stringify(profile)}.`);
  }
  const disabled = v.disabled ?? [];
  if (!Array.isArray(disabled)) throw fail(`${at}.disabled`, 'expected an array of module names.');
  const seen = new Set<string>();
  disabled.forEach((name, i) => {
    if (!isModuleName(name))
      throw fail(
        `${at}.disabled.${i}`,
        `${JSON.stringify(name)} is not a module. Modules: ${MODULE_NAMES.join(', ')}.`,
      );
    if (seen.has(name)) throw fail(`${at}.disabled.${i}`, `"${name}" is listed twice.`);
    seen.add(name);
  });
  return { profile: profile as ProfileName, disabled: disabled as ModuleName[] };
}

/** The modules a selection enables, in the canonical order. */
export function enabledModules(selection: ProfileSelection): ModuleName[] {
  return PROFILE_MODULES[selection.profile].filter((m) => !selection.disabled.includes(m));
}
