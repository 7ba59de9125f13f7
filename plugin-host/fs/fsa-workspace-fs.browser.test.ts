import { describe, expect, it } from 'vitest';
import { createFsaWorkspaceFs } from './fsa-workspace-fs';
import { codeOf, defineWorkspaceFsSuite } from './workspace-fs-suite';

// Each harness gets its own OPFS sub-directory, as the app's private workspaces do.
async function freshOpfsDir(): Promise<{ dir: FileSystemDirectoryHandle; cleanup: () => Promise<void> }> {
  const opfs = await navigator.storage.getDirectory();
  const name = `wsfs-${crypto.randomUUID()}`;
  const dir = await opfs.getDirectoryHandle(name, { create: true });
  return { dir, cleanup: () => opfs.removeEntry(name, { recursive: true }) };
}

defineWorkspaceFsSuite('File System Access over OPFS', async () => {
  const { dir, cleanup } = await freshOpfsDir();
  return {
    open: async (access, limits) => createFsaWorkspaceFs(dir, { access, ...limits }),
    cleanup,
  };
});

describe('File System Access WorkspaceFs specifics', () => {
  it('keeps the old content and leaves no file behind when a write fails midway', async () => {
    const { dir, cleanup } = await freshOpfsDir();
    try {
      const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
      await fs.writeText('doc.txt', 'old');
      // Bytes that fail once the writable stream is open: the size check passes, consuming them throws.
      const failing = new Proxy(new Uint8Array(16), {
        get(target, key) {
          if (key === 'byteLength' || key === 'length') return target.byteLength;
          throw new Error('simulated failure while writing');
        },
      });
      expect(await codeOf(fs.writeBytes('doc.txt', failing))).not.toBe('resolved');
      expect(await fs.readText('doc.txt')).toBe('old');
      expect(await codeOf(fs.writeBytes('new.txt', failing))).not.toBe('resolved');
      expect((await fs.list('')).map((e) => e.name)).toEqual(['doc.txt']);
    } finally {
      await cleanup();
    }
  });

  it('names the workspace after its handle unless told otherwise', async () => {
    const { dir, cleanup } = await freshOpfsDir();
    try {
      expect(createFsaWorkspaceFs(dir, { access: 'read' }).rootName).toBe(dir.name);
      expect(createFsaWorkspaceFs(dir, { access: 'read', rootName: 'Project' }).rootName).toBe('Project');
    } finally {
      await cleanup();
    }
  });
});
