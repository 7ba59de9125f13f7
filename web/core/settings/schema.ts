// The settings a person can change, their defaults and validators. Global settings apply everywhere; workspace
// settings override the global value of the same field where `scopes` allows it. Secrets are NOT settings: a
// setting refers to a credential by its name in the secrets store (secrets.ts) and the value never appears here.
// To add a setting: add a field below (with a default and a validator); SETTINGS_VERSION changes only when an
// existing field changes meaning, and then `migrateSettingsValues` learns the old shape.

import { checkPriceTable } from '../usage';
import type { PriceTable } from '../contracts';

export const SETTINGS_VERSION = 1;

export type Language = 'system' | 'en' | 'zh';
export type Theme = 'system' | 'light' | 'dark';

export interface GlobalSettings {
  language: Language;
  theme: Theme;
  /** Show dot-files and dot-folders in the file list. */
  showHiddenFiles: boolean;
  /**
   * The person's prices per model (web/core/usage): dollars per million tokens, dated. Absent means no prices, so
   * every cost shows "—"; presets are offered in Settings and copied here only when the person picks one.
   */
  prices?: PriceTable;
}

/** Per-workspace overrides; absent means "use the global value". */
export interface WorkspaceSettings {
  showHiddenFiles?: boolean;
  /**
   * "Allow the agent to write inside .git" (workspace only, off by default): lets write/edit and plugin fs.write
   * change files under .git, which the workspace write policy refuses otherwise (plugin-host/fs/write-policy.ts).
   */
  allowGitWrites?: boolean;
}

export const DEFAULT_GLOBAL_SETTINGS: GlobalSettings = { language: 'system', theme: 'system', showHiddenFiles: false };

type Check = (value: unknown) => string | null;
const oneOf =
  (...allowed: string[]): Check =>
  (v) =>
    typeof v === 'string' && allowed.includes(v)
      ? null
      : `expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`;
const bool: Check = (v) => (typeof v === 'boolean' ? null : 'expected true or false');
/** Every problem of the table in one sentence, each with its path inside the table (`prices.2.input: …`). */
const priceTableCheck: Check = (v) => {
  const problems = checkPriceTable(v);
  return problems.length
    ? `${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (${problems.length - 5} more)` : ''}`
    : null;
};

interface FieldSpec {
  check: Check;
  scopes: readonly ('global' | 'workspace')[];
}

export const SETTING_FIELDS: Record<keyof GlobalSettings | keyof WorkspaceSettings, FieldSpec> = {
  language: { check: oneOf('system', 'en', 'zh'), scopes: ['global'] },
  theme: { check: oneOf('system', 'light', 'dark'), scopes: ['global'] },
  showHiddenFiles: { check: bool, scopes: ['global', 'workspace'] },
  // Per workspace only: a global switch would open .git in every folder, including ones added later.
  allowGitWrites: { check: bool, scopes: ['workspace'] },
  // Global only: prices belong to the provider account, not to a folder.
  prices: { check: priceTableCheck, scopes: ['global'] },
};

export interface SettingsIssue {
  /** Dotted path inside the checked document, e.g. `global.language`. */
  path: string;
  problem: string;
}

/** Checks one settings object of a scope; unknown keys are refused (strict at a trust boundary). */
export function checkSettingsValues(values: unknown, scope: 'global' | 'workspace', path: string): SettingsIssue[] {
  if (typeof values !== 'object' || values === null || Array.isArray(values))
    return [{ path, problem: 'expected an object' }];
  const issues: SettingsIssue[] = [];
  for (const [key, value] of Object.entries(values)) {
    const spec = (SETTING_FIELDS as Record<string, FieldSpec | undefined>)[key];
    if (!spec) {
      issues.push({ path: `${path}.${key}`, problem: 'unknown setting' });
      continue;
    }
    if (!spec.scopes.includes(scope)) {
      issues.push({ path: `${path}.${key}`, problem: `can only be set ${spec.scopes.join(' or ')}-wide` });
      continue;
    }
    const problem = spec.check(value);
    if (problem) issues.push({ path: `${path}.${key}`, problem });
  }
  return issues;
}

/** Settings of one workspace: its overrides over the global values. */
export function effectiveSettings(global: GlobalSettings, workspace: WorkspaceSettings | undefined): GlobalSettings {
  return { ...global, ...Object.fromEntries(Object.entries(workspace ?? {}).filter(([, v]) => v !== undefined)) };
}
