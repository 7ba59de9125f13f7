// What importing a package would do, decided before anything is stored, so Settings → Plugins can show it and ask.
// Pure: the registry (plugin-host/runtime) still enforces its own rules when the plan is applied; this module only
// mirrors them to say in advance which of three things happens.
import type { InstalledPlugin, PluginPermissions, ValidatedPackage } from '../../../plugin-host';

/**
 * `install`: no plugin with this id is installed. `unchanged`: the same code (sha256) and version are installed, so
 * nothing would change. `update`: the id is installed with other code or another version; the person confirms first.
 */
export type ImportDecision = 'install' | 'unchanged' | 'update';

/** How the versions relate in an update: a downgrade or the same version with new code deserve a warning. */
export type VersionChange = 'upgrade' | 'same-version' | 'downgrade';

/** The facts of one side of an update, as the dialog shows them. */
export interface PackageFacts {
  id: string;
  name: string;
  version: string;
  sha256: string;
  permissions: PluginPermissions;
}

export interface ImportPlan {
  decision: ImportDecision;
  incoming: PackageFacts;
  /** The installed plugin with this id, when there is one. */
  installed?: PackageFacts;
  /** Set for `update`. */
  versionChange?: VersionChange;
  /** The new code asks for more than the installed one: the registry switches it off where it was enabled. */
  widensPermissions: boolean;
}

/** Same rule as the registry (plugin-registry.ts): one installed version per id, identical iff sha256 and version match. */
export function decideImport(
  installed: Pick<PackageFacts, 'version' | 'sha256'> | undefined,
  incoming: Pick<PackageFacts, 'version' | 'sha256'>,
): ImportDecision {
  if (!installed) return 'install';
  return installed.sha256 === incoming.sha256 && installed.version === incoming.version ? 'unchanged' : 'update';
}

/** Compares MAJOR.MINOR.PATCH versions (the manifest validator allows nothing else). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

const rank: Record<PluginPermissions['workspace'], number> = { none: 0, read: 1, 'read-write': 2 };

/** The registry's rule for switching a plugin off on update: more workspace access, or storage it did not have. */
export const widens = (from: PluginPermissions, to: PluginPermissions): boolean =>
  rank[to.workspace] > rank[from.workspace] || (to.storage && !from.storage);

export function factsOfPackage(pkg: Pick<ValidatedPackage, 'manifest' | 'sha256'>): PackageFacts {
  const m = pkg.manifest;
  return {
    id: m.id,
    name: m.name,
    version: m.version,
    sha256: pkg.sha256,
    permissions: { workspace: m.permissions.workspace, storage: m.permissions.storage },
  };
}

export function factsOfInstalled(p: InstalledPlugin): PackageFacts {
  return { id: p.id, name: p.name, version: p.version, sha256: p.sha256, permissions: { ...p.permissions } };
}

export function planImport(installed: PackageFacts | undefined, incoming: PackageFacts): ImportPlan {
  const decision = decideImport(installed, incoming);
  const plan: ImportPlan = { decision, incoming, widensPermissions: false };
  if (!installed) return plan;
  plan.installed = installed;
  if (decision === 'update') {
    const order = compareVersions(incoming.version, installed.version);
    plan.versionChange = order > 0 ? 'upgrade' : order < 0 ? 'downgrade' : 'same-version';
    plan.widensPermissions = widens(installed.permissions, incoming.permissions);
  }
  return plan;
}
