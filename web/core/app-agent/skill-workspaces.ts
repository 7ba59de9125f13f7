// Extra skill roots in the app (seed 000 §4 skills.json `roots`, app parity): headless `i` reads skills from
// configured folders; the app's folders are its workspaces, so Settings → Agent names other workspaces whose
// folders hold skill folders (`<folder>/<skill>/SKILL.md`, like a configured root). Each is opened read-only, in
// the Worker as on the page, through the same access check as the workspace itself: a folder whose permission the
// browser forgot, or a workspace since deleted, is a problem shown with its code — never a silent skip.
import type { ErrorData } from '../contracts';
import { HarnessError, toErrorData } from '../contracts';
import type { HarnessDb } from '../storage';
import type { WorkspaceFs } from '../contracts';
import { createFsaWorkspaceFs } from '../contracts';
import { discoverSkills, workspaceSkillRoots, type SkillCatalog, type SkillRoot } from '../modules';
import { getWorkspace, openWorkspaceFs } from '../workspaces';

/** At most this many other workspaces lend their skills (each is scanned at every turn start). */
export const MAX_SKILL_WORKSPACES = 8;

/** Opens another workspace read-only: its name and fs, or null when no such workspace exists. */
export type SkillWorkspaceOpener = (id: string) => Promise<{ name: string; fs: WorkspaceFs } | null>;

const fail = (at: string, message: string) =>
  new HarnessError('E_AGENT_MODULES_INVALID', `At ${at}: ${message}`, { at });

/** `skill_workspaces` of a stored Settings → Agent: workspace ids, each once. */
export function checkSkillWorkspaces(value: unknown, at: string): string[] {
  if (!Array.isArray(value) || value.length > MAX_SKILL_WORKSPACES)
    throw fail(at, `expected a list of at most ${MAX_SKILL_WORKSPACES} workspace ids.`);
  const seen = new Set<string>();
  return value.map((id, i) => {
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(id))
      throw fail(
        `${at}.${i}`,
        `${JSON.stringify(id)} is not a workspace id. Choose the workspaces again in Settings → Agent → Skills.`,
      );
    if (seen.has(id)) throw fail(`${at}.${i}`, `the workspace "${id}" is listed twice.`);
    seen.add(id);
    return id;
  });
}

/**
 * The skills of a workspace (its own .agents/skills and .i/skills) plus those of the other workspaces named in
 * `ids` (the workspace itself is skipped). Problems of an unopenable workspace come first, then discovery's own.
 */
export async function skillCatalogWith(
  fs: WorkspaceFs,
  self: string,
  ids: readonly string[],
  open: SkillWorkspaceOpener,
): Promise<SkillCatalog> {
  const roots: SkillRoot[] = workspaceSkillRoots(fs);
  const problems: ErrorData[] = [];
  for (const id of ids) {
    if (id === self) continue;
    try {
      const other = await open(id);
      if (!other) {
        problems.push({
          code: 'E_SKILL_WORKSPACE_MISSING',
          message: `A workspace chosen in Settings → Agent → Skills no longer exists. Untick it there.`,
          data: { workspaceId: id },
        });
        continue;
      }
      roots.push({ source: `workspace:${other.name}`, fs: other.fs, path: '', optional: false });
    } catch (error) {
      const e = toErrorData(error);
      problems.push({
        code: 'E_SKILL_WORKSPACE_NO_ACCESS',
        message: `The skills of another workspace could not be opened (${e.code}: ${e.message})`,
        data: { workspaceId: id, cause: e.code },
      });
    }
  }
  const catalog = await discoverSkills(roots);
  return { skills: catalog.skills, problems: [...problems, ...catalog.problems] };
}

/** The opener over the app's workspace registry (IndexedDB) and the File System Access handles it keeps. */
export function idbSkillWorkspaceOpener(db: HarnessDb): SkillWorkspaceOpener {
  return async (id) => {
    const record = await getWorkspace(db, id);
    if (!record) return null;
    const fs = await openWorkspaceFs({ ...record, access: 'read' }, (handle) =>
      createFsaWorkspaceFs(handle, { access: 'read', rootName: record.kind === 'opfs' ? record.name : handle.name }),
    );
    return { name: record.name, fs };
  };
}
