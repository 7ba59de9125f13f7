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
  it('reads through handles remembered from a listing, and never serves a file that was changed, removed or replaced by a folder', async () => {
    const { dir, cleanup } = await freshOpfsDir();
    try {
      const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
      await fs.writeText('src/a.txt', 'one');
      await fs.writeText('src/b.txt', 'two');
      await fs.writeText('src/big.txt', 'x'.repeat(100));
      // Without sizes a listing reports files as 0 bytes; with them, their sizes.
      expect((await fs.list('src', { sizes: false })).map((e) => [e.name, e.size])).toEqual([
        ['a.txt', 0],
        ['b.txt', 0],
        ['big.txt', 0],
      ]);
      expect((await fs.list('src')).find((e) => e.name === 'big.txt')?.size).toBe(100);
      expect(await fs.readText('src/a.txt')).toBe('one');
      // Changed by this fs, and behind its back through another handle of the same folder.
      await fs.writeText('src/a.txt', 'one, changed');
      expect(await fs.readText('src/a.txt')).toBe('one, changed');
      const other = createFsaWorkspaceFs(dir, { access: 'read-write' });
      await other.writeText('src/b.txt', 'two, changed elsewhere');
      expect(await fs.readText('src/b.txt')).toBe('two, changed elsewhere');
      // The byte cap still holds for a remembered handle.
      expect(await codeOf(fs.readBytes('src/big.txt', { maxBytes: 10 }))).toBe('E_FS_TOO_LARGE');
      await other.remove('src/b.txt');
      expect(await codeOf(fs.readText('src/b.txt'))).toBe('E_FS_NOT_FOUND');
      await fs.list('src');
      await other.remove('src/a.txt');
      await other.mkdir('src/a.txt');
      expect(await codeOf(fs.readText('src/a.txt'))).toBe('E_FS_NOT_FILE');
    } finally {
      await cleanup();
    }
  });

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
