// Workspace identity for Node hosts (seed 000 §3): without an explicit ID, the canonical workspace path is
// digested (SHA-256) and looked up in `<data_dir>/workspaces.json`, which binds each digest to a UUID v4.
// The registry is locked and written atomically, holds at most 10000 entries and is read with a 2 MB cap;
// an existing binding is never rewritten (a lookup that finds one does not touch the file).
// Only digests are stored, never paths, so the file stays small (about 167 bytes per entry, 1.7 MB when full)
// and reveals no folder names. Moving or renaming a project gives it a new identity: that is not migrated automatically.
// Node-only (exported from ./node.ts).
import { createHash, randomUUID } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { HarnessError } from '../errors';
import { corrupt, readJsonFile, updateJsonFile, type JsonFileOptions } from './json-file-store';

export const WORKSPACE_REGISTRY_FILE = 'workspaces.json';
export const MAX_WORKSPACE_ENTRIES = 10_000;
export const WORKSPACE_REGISTRY_VERSION = 1;

export interface WorkspaceBinding {
  id: string;
  created_ms: number;
}

export interface WorkspaceRegistryFile {
  version: typeof WORKSPACE_REGISTRY_VERSION;
  /** sha256 hex of the canonical path → binding. */
  workspaces: Record<string, WorkspaceBinding>;
}

export interface ResolvedWorkspace {
  id: string;
  digest: string;
  canonicalPath: string;
  /** True when this call created the binding. */
  created: boolean;
}

export interface WorkspaceRegistryOptions extends JsonFileOptions {
  /** The data directory (seed 000 §3: data_dir, I_DATA_DIR or ~/.i/data). The registry is `<dataDir>/workspaces.json`. */
  dataDir: string;
  /** Most bindings the registry may hold (default 10000). */
  maxEntries?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** The real, absolute, NFC-normalised path of an existing folder, without a trailing separator. */
export async function canonicalWorkspacePath(path: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(resolve(path));
    if (!(await stat(real)).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (error) {
    throw new HarnessError(
      'E_WORKSPACE_PATH',
      `The workspace ${JSON.stringify(path)} is not an existing folder. Pass the path of the project folder.`,
      { path },
      { cause: error },
    );
  }
  const trimmed = real.length > 1 && real.endsWith(sep) ? real.slice(0, -1) : real;
  return trimmed.normalize('NFC');
}

export function workspaceDigest(canonicalPath: string): string {
  return createHash('sha256').update(canonicalPath, 'utf8').digest('hex');
}

/** Validates the registry file strictly; an unreadable registry is refused, never silently replaced. */
export function parseWorkspaceRegistry(value: unknown, file: string): WorkspaceRegistryFile {
  if (value === undefined) return { version: WORKSPACE_REGISTRY_VERSION, workspaces: {} };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw corrupt(file, 'the top level is not an object');
  const v = value as Record<string, unknown>;
  if (v.version !== WORKSPACE_REGISTRY_VERSION) throw corrupt(file, `At version: expected ${WORKSPACE_REGISTRY_VERSION}, got ${JSON.stringify(v.version)}`);
  const extra = Object.keys(v).filter((k) => k !== 'version' && k !== 'workspaces');
  if (extra.length > 0) throw corrupt(file, `unknown field ${JSON.stringify(extra[0])}`);
  const ws = v.workspaces;
  if (typeof ws !== 'object' || ws === null || Array.isArray(ws)) throw corrupt(file, 'At workspaces: expected an object');
  const workspaces: Record<string, WorkspaceBinding> = Object.create(null) as Record<string, WorkspaceBinding>;
  for (const [digest, binding] of Object.entries(ws as Record<string, unknown>)) {
    if (!DIGEST.test(digest)) throw corrupt(file, `At workspaces.${digest}: expected a sha256 hex key`);
    const b = binding as Record<string, unknown> | null;
    if (typeof b !== 'object' || b === null || typeof b.id !== 'string' || !UUID.test(b.id) || typeof b.created_ms !== 'number') {
      throw corrupt(file, `At workspaces.${digest}: expected {"id": UUID, "created_ms": number}`);
    }
    workspaces[digest] = { id: b.id, created_ms: b.created_ms };
  }
  return { version: WORKSPACE_REGISTRY_VERSION, workspaces };
}

/** The registry's path inside a data directory. */
export function workspaceRegistryPath(dataDir: string): string {
  return join(dataDir, WORKSPACE_REGISTRY_FILE);
}

/** Looks up the UUID bound to a workspace folder, binding a new UUID v4 the first time. */
export async function resolveWorkspaceId(workspace: string, options: WorkspaceRegistryOptions): Promise<ResolvedWorkspace> {
  const canonicalPath = await canonicalWorkspacePath(workspace);
  const digest = workspaceDigest(canonicalPath);
  const file = workspaceRegistryPath(options.dataDir);
  const maxEntries = options.maxEntries ?? MAX_WORKSPACE_ENTRIES;

  // Fast path without the lock: an existing binding is read, never rewritten.
  const existing = parseWorkspaceRegistry(await readJsonFile(file, options), file).workspaces[digest];
  if (existing) return { id: existing.id, digest, canonicalPath, created: false };

  return updateJsonFile<ResolvedWorkspace>(
    file,
    (current) => {
      const registry = parseWorkspaceRegistry(current, file);
      const bound = registry.workspaces[digest];
      if (bound) return { result: { id: bound.id, digest, canonicalPath, created: false } };
      const count = Object.keys(registry.workspaces).length;
      if (count >= maxEntries) {
        throw new HarnessError(
          'E_WORKSPACE_REGISTRY_FULL',
          `The workspace registry ${file} already holds ${count} workspaces (the limit is ${maxEntries}). Remove entries of folders you no longer use, or pass an explicit workspace ID.`,
          { file, count, maxEntries },
        );
      }
      const binding: WorkspaceBinding = { id: randomUUID(), created_ms: Date.now() };
      const workspaces = { ...registry.workspaces, [digest]: binding };
      return { value: { version: WORKSPACE_REGISTRY_VERSION, workspaces }, result: { id: binding.id, digest, canonicalPath, created: true } };
    },
    options,
  );
}
