// Real OPFS and IndexedDB in Chromium: the private-workspace life cycle and its access checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsaWorkspaceFs } from '../contracts/fs';
import { openHarnessDb, type HarnessDb } from '../storage';
import { queryWorkspaceAccess, openWorkspaceFs, requestWorkspaceAccess } from './access';
import { createOpfsWorkspace, deleteWorkspace } from './lifecycle';
import { getWorkspace } from './registry';

let db: HarnessDb;
beforeAll(async () => {
  db = await openHarnessDb(`browser-ws-${crypto.randomUUID()}`);
});
afterAll(() => db.close());

const factory = (handle: FileSystemDirectoryHandle, access: 'read' | 'read-write') =>
  createFsaWorkspaceFs(handle, { access });

describe('private (OPFS) workspaces', () => {
  it('creates workspaces/<uuid> in OPFS, opens it through WorkspaceFs, and deletes it with the record', async () => {
    const record = await createOpfsWorkspace(db, 'Scratch');
    const base = await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces');
    await expect(base.getDirectoryHandle(record.id)).resolves.toBeTruthy();
    expect(await queryWorkspaceAccess(record)).toBe('granted');
    expect(await requestWorkspaceAccess(record)).toBe('granted');

    const fs = await openWorkspaceFs(record, factory);
    await fs.writeText('a/b.txt', 'hello');
    expect(await fs.readText('a/b.txt')).toBe('hello');

    await deleteWorkspace(db, record.id);
    expect(await getWorkspace(db, record.id)).toBeUndefined();
    await expect(base.getDirectoryHandle(record.id)).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('reports a private workspace whose directory vanished as missing, and refuses to open it', async () => {
    const record = await createOpfsWorkspace(db, 'Vanishing');
    const base = await (await navigator.storage.getDirectory()).getDirectoryHandle('workspaces');
    await base.removeEntry(record.id, { recursive: true });
    expect(await queryWorkspaceAccess(record)).toBe('missing');
    await expect(openWorkspaceFs(record, factory)).rejects.toMatchObject({ code: 'E_WORKSPACE_FOLDER_MISSING' });
    await deleteWorkspace(db, record.id);
  });

  it('stores a folder handle in IndexedDB and gets a working handle back', async () => {
    const { createFolderWorkspace } = await import('./lifecycle');
    const dir = await (
      await navigator.storage.getDirectory()
    ).getDirectoryHandle(`folder-${crypto.randomUUID()}`, { create: true });
    const created = await createFolderWorkspace(db, 'Granted', dir, 'read');
    const stored = await getWorkspace(db, created.id);
    expect(stored?.handle?.name).toBe(dir.name);
    expect(await stored!.handle!.isSameEntry(dir)).toBe(true);
    const fs = await openWorkspaceFs(stored!, factory);
    await expect(fs.writeText('x.txt', 'no')).rejects.toMatchObject({ code: 'E_FS_READ_ONLY' });
  });
});
