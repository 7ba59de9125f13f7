// The workspace registry: records in the `workspaces` store, created with a UUID identity that never changes
// (seed 000 §3), bounded at MAX_WORKSPACES entries. Creation checks the bound and duplicate names inside one
// readwrite transaction so two tabs cannot both take the last slot.
import { HarnessError } from '../contracts';
import type { WorkspaceAccess } from '../contracts';
import { nameKeyOf, type HarnessDb, type StoreName, type WorkspaceKind, type WorkspaceRecord } from '../storage';
import { MAX_WORKSPACES } from './limits';
import { isWorkspaceId, validateWorkspaceName } from './names';

export type NewWorkspace =
  | { name: string; kind: 'folder'; access: WorkspaceAccess; handle: FileSystemDirectoryHandle }
  | { name: string; kind: 'opfs' };

export interface RegistryOptions {
  /** Defaults to MAX_WORKSPACES; tests pass a small bound. */
  limit?: number;
  now?: () => number;
  newId?: () => string;
}

export async function listWorkspaces(db: HarnessDb): Promise<WorkspaceRecord[]> {
  const all = await db.getAllFromIndex('workspaces', 'by_name_key');
  return all;
}

export async function getWorkspace(db: HarnessDb, id: string): Promise<WorkspaceRecord | undefined> {
  return db.get('workspaces', id);
}

export async function createWorkspaceRecord(
  db: HarnessDb,
  input: NewWorkspace,
  options: RegistryOptions = {},
): Promise<WorkspaceRecord> {
  const name = validateWorkspaceName(input.name);
  const limit = options.limit ?? MAX_WORKSPACES;
  const now = (options.now ?? Date.now)();
  const id = (options.newId ?? (() => crypto.randomUUID()))();
  if (!isWorkspaceId(id))
    throw new HarnessError('E_INTERNAL', 'A workspace id was not a UUID. Reload the page and try again.');
  const kind: WorkspaceKind = input.kind;
  const record: WorkspaceRecord = {
    id,
    name,
    nameKey: nameKeyOf(name),
    kind,
    access: input.kind === 'folder' ? input.access : 'read-write',
    createdAt: now,
    updatedAt: now,
    ...(input.kind === 'folder' ? { handle: input.handle } : {}),
  };
  const tx = db.transaction('workspaces', 'readwrite');
  try {
    const count = await tx.store.count();
    if (count >= limit) {
      throw new HarnessError(
        'E_WORKSPACE_LIMIT',
        `You have ${count} workspaces, the most this app keeps (${limit}). Delete workspaces you no longer use, then create this one again.`,
        { limit },
      );
    }
    if ((await tx.store.index('by_name_key').count(record.nameKey)) > 0) throw nameTaken(name);
    await tx.store.add(record);
    await tx.done;
  } catch (error) {
    abortQuietly(tx);
    throw error;
  }
  return record;
}

export async function renameWorkspace(
  db: HarnessDb,
  id: string,
  newName: string,
  options: Pick<RegistryOptions, 'now'> = {},
): Promise<WorkspaceRecord> {
  const name = validateWorkspaceName(newName);
  const tx = db.transaction('workspaces', 'readwrite');
  try {
    const record = await tx.store.get(id);
    if (!record) throw notFound(id);
    const nameKey = nameKeyOf(name);
    const holders = await tx.store.index('by_name_key').getAllKeys(nameKey);
    if (holders.some((key) => key !== id)) throw nameTaken(name);
    const updated: WorkspaceRecord = { ...record, name, nameKey, updatedAt: (options.now ?? Date.now)() };
    await tx.store.put(updated);
    await tx.done;
    return updated;
  } catch (error) {
    abortQuietly(tx);
    throw error;
  }
}

/** Replaces the stored folder handle and access mode (the person picked the folder again). */
export async function updateWorkspaceGrant(
  db: HarnessDb,
  id: string,
  handle: FileSystemDirectoryHandle,
  access: WorkspaceAccess,
): Promise<WorkspaceRecord> {
  const tx = db.transaction('workspaces', 'readwrite');
  const record = await tx.store.get(id);
  if (!record || record.kind !== 'folder') {
    abortQuietly(tx);
    throw notFound(id);
  }
  const updated: WorkspaceRecord = { ...record, handle, access, updatedAt: Date.now() };
  await tx.store.put(updated);
  await tx.done;
  return updated;
}

const WORKSPACE_SCOPED: readonly StoreName[] = [
  'plugin_enablement',
  'plugin_kv',
  'memory',
  'metrics',
  'checkpoint_blobs',
  'checkpoint_records',
];

/**
 * Settings scopes that belong to one workspace, keyed `<scope>:<workspaceId>`: the general per-workspace settings
 * and the agent's (model override, approval mode). Anything stored per workspace in `settings` must use one of
 * these so that deleting the workspace deletes it.
 */
export const WORKSPACE_SETTINGS_SCOPES = ['workspace', 'agent-workspace'] as const;

/**
 * Deletes the record and everything the app stored for the workspace (settings, sessions and their entries,
 * plugin enablement and KV, memory, metrics, content) in one transaction. The person's folder is never touched.
 */
export async function deleteWorkspaceRecord(db: HarnessDb, id: string): Promise<WorkspaceRecord> {
  const tx = db.transaction(
    ['workspaces', 'settings', 'sessions', 'session_entries', 'content', ...WORKSPACE_SCOPED],
    'readwrite',
  );
  try {
    const record = await tx.objectStore('workspaces').get(id);
    if (!record) throw notFound(id);
    await tx.objectStore('workspaces').delete(id);
    for (const scope of WORKSPACE_SETTINGS_SCOPES) await tx.objectStore('settings').delete(`${scope}:${id}`);
    const sessions = tx.objectStore('sessions');
    const sessionIds = await sessions
      .index('by_workspace')
      .getAllKeys(IDBKeyRange.bound([id, -Infinity], [id, Infinity]));
    for (const sessionId of sessionIds) {
      await sessions.delete(sessionId);
      await tx.objectStore('session_entries').delete(IDBKeyRange.bound([sessionId, -Infinity], [sessionId, Infinity]));
    }
    const content = tx.objectStore('content');
    for (const ref of await content.index('by_workspace').getAllKeys(id)) await content.delete(ref);
    // Compound keys starting with the workspace id: [id] sorts before every [id, ...], and [id, []] after them
    // (arrays sort above strings and numbers in IndexedDB key order).
    const prefix = IDBKeyRange.bound([id], [id, []]);
    for (const store of WORKSPACE_SCOPED) await tx.objectStore(store).delete(prefix);
    await tx.done;
    return record;
  } catch (error) {
    abortQuietly(tx);
    throw error;
  }
}

function notFound(id: string): HarnessError {
  return new HarnessError(
    'E_WORKSPACE_NOT_FOUND',
    'This workspace no longer exists (it may have been deleted in another tab). Reload the workspace list.',
    { id },
  );
}

function nameTaken(name: string): HarnessError {
  return new HarnessError(
    'E_WORKSPACE_NAME_TAKEN',
    `A workspace named “${name}” already exists. Choose another name.`,
    { name },
  );
}

function abortQuietly(tx: { abort(): void; done: Promise<void> }): void {
  tx.done.catch(() => undefined);
  try {
    tx.abort();
  } catch {
    // already finished or aborted
  }
}
