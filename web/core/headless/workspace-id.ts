// Headless i's side of the one workspace registry (seed 000 §3), shared with i-bridge and the private bridge:
// `<data_dir>/workspaces.json` = {"version": 1, "workspaces": {sha256-hex of the folder's real path: UUID}}.
// The bridge keeps the same file with bridge/workspace-registry.ts; the bridge stands alone (it imports nothing
// from web/), so this is a second implementation of the same format, and the cross-process test
// (registry-shared-with-bridge.test.ts) runs the real bridge and the real i on one folder to keep them equal.
// - Same key both sides: SHA-256 of the realpath, exactly as the bridge canonicalises its --root (no further
//   normalisation: an extra NFC step here would give a folder with a decomposed name two identities).
// - Lock `<file>.lock` (O_EXCL, as the bridge's), atomic write (temp + rename), at most 10000 entries, read
//   capped at 2 MB; a lookup that finds a binding never writes; keys this version does not know are kept.
// - An explicit id (--workspace-id) must be a UUID: a binding given by a trusted host, never written here.
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { readJsonFile, updateJsonFile } from '../../../plugin-host/fs/node';
import { escapeControls, HarnessError } from '../contracts';
import { resolveAppPaths } from './paths';
import { migrateLegacyWorkspaceData } from './workspace-migrate';

export const REGISTRY_FILE = 'workspaces.json';
export const REGISTRY_MAX_ENTRIES = 10_000;
export const REGISTRY_MAX_READ_BYTES = 2 * 1024 * 1024;
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DIGEST = /^[0-9a-f]{64}$/;

type Registry = { version: 1; workspaces: Record<string, string> } & Record<string, unknown>;

export const workspaceDigest = (canonicalPath: string): string =>
  createHash('sha256').update(canonicalPath, 'utf8').digest('hex');

const invalid = (file: string, why: string) =>
  new HarnessError('E_REGISTRY_INVALID', `${file} ${why}. Repair or remove it (i-bridge and i share it).`, { file });

/** Validates the registry as the bridge does; an unreadable registry is refused, never replaced. */
export function parseRegistry(value: unknown, file: string): Registry {
  if (value === undefined) return { version: 1, workspaces: {} };
  const reg = value as Partial<Registry> | null;
  if (
    typeof reg !== 'object' ||
    reg === null ||
    Array.isArray(reg) ||
    reg.version !== 1 ||
    typeof reg.workspaces !== 'object' ||
    reg.workspaces === null ||
    Array.isArray(reg.workspaces)
  ) {
    throw invalid(file, 'has an unknown format');
  }
  for (const [digest, id] of Object.entries(reg.workspaces)) {
    if (!DIGEST.test(digest) || typeof id !== 'string' || !UUID_PATTERN.test(id))
      throw invalid(file, 'holds an invalid entry');
  }
  return reg as Registry;
}

async function readRegistry(file: string, run: () => Promise<unknown>): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'E_JSON_TOO_LARGE')
      throw invalid(file, `is larger than ${REGISTRY_MAX_READ_BYTES} bytes; remove stale entries from it`);
    if (code === 'E_JSON_CORRUPT') throw invalid(file, 'is not valid JSON');
    if (code === 'E_LOCK_TIMEOUT')
      throw new HarnessError(
        'E_REGISTRY_LOCKED',
        `The workspace registry ${file} stayed locked. Try again; if no i or i-bridge process is running, delete ${file}.lock.`,
        { file },
      );
    throw error;
  }
}

export interface RegistryOptions {
  /** Most bindings (default 10000; tests lower it). */
  maxEntries?: number;
  lockTimeoutMs?: number;
}

/** The UUID bound to a canonical (realpath) folder, binding a new one on first use. */
export async function registryWorkspaceId(
  dataDir: string,
  canonicalPath: string,
  options: RegistryOptions = {},
): Promise<{ id: string; created: boolean }> {
  const file = join(dataDir, REGISTRY_FILE);
  const digest = workspaceDigest(canonicalPath);
  const maxEntries = options.maxEntries ?? REGISTRY_MAX_ENTRIES;
  const fileOptions = {
    maxBytes: REGISTRY_MAX_READ_BYTES,
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
  };
  // Without the lock first: an existing binding is only read.
  const known = parseRegistry(await readRegistry(file, () => readJsonFile(file, fileOptions)), file).workspaces[digest];
  if (known) return { id: known, created: false }; // as stored: the bridge hands workers the same spelling
  return (await readRegistry(file, () =>
    updateJsonFile(
      file,
      (current) => {
        const reg = parseRegistry(current, file); // re-read under the lock: another process may have bound it meanwhile
        const bound = reg.workspaces[digest];
        if (bound) return { result: { id: bound, created: false } };
        const count = Object.keys(reg.workspaces).length;
        if (count >= maxEntries) {
          throw new HarnessError(
            'E_REGISTRY_FULL',
            `${file} already has ${count} workspaces (at most ${maxEntries}). Remove stale entries from it, or pass --workspace-id UUID.`,
            { file, count },
          );
        }
        const id = randomUUID();
        return { value: { ...reg, workspaces: { ...reg.workspaces, [digest]: id } }, result: { id, created: true } };
      },
      fileOptions,
    ),
  )) as { id: string; created: boolean };
}

/** --workspace-id: a UUID given by a trusted host (lower-cased, as the bridge stores it); anything else is refused. */
export function checkExplicitWorkspaceId(text: string): string {
  if (!UUID_PATTERN.test(text)) {
    throw new HarnessError(
      'E_WORKSPACE_ID_INVALID',
      `--workspace-id must be a UUID (like 3f2b8c1e-0d4a-4c9e-9f7a-1b2c3d4e5f60), got ${JSON.stringify(text.slice(0, 80))}. Leave it out to use the folder's id from the workspace registry.`,
      { value: text.slice(0, 80) },
    );
  }
  return text.toLowerCase();
}

export interface WorkspaceIdentity {
  id: string;
  /** 'explicit': --workspace-id; 'registry': looked up (or bound now) in <data_dir>/workspaces.json. */
  source: 'explicit' | 'registry';
  /** Problems worth a warning line (data of an older i that could not be moved). */
  warnings: string[];
}

/**
 * The workspace id of a headless run (memory, cache statistics, session files): --workspace-id when given, else
 * the registry's UUID, moving the folder's pre-registry data under it on first use.
 */
export async function headlessWorkspaceId(
  dataDir: string,
  canonicalPath: string,
  explicit: string | null,
): Promise<WorkspaceIdentity> {
  if (explicit !== null) return { id: checkExplicitWorkspaceId(explicit), source: 'explicit', warnings: [] };
  const { id } = await registryWorkspaceId(dataDir, canonicalPath);
  return { id, source: 'registry', warnings: await migrateLegacyWorkspaceData(dataDir, canonicalPath, id) };
}

/** The workspace id of a run of i: the data dir from the environment, warnings on stderr. */
export async function runWorkspaceId(
  io: { env: Record<string, string | undefined>; stderr(text: string): void },
  workspace: string,
  explicit: string | null,
): Promise<string> {
  const identity = await headlessWorkspaceId(resolveAppPaths(io.env).data_dir, workspace, explicit);
  for (const w of identity.warnings) io.stderr(`warning: ${escapeControls(w, { keepLayout: false })}\n`);
  return identity.id;
}
