// "Import .zip" as a new private workspace: a refusal found while unpacking (after the workspace was created)
// deletes the workspace again, record and files; a good archive gives a listed workspace holding its files.
import 'fake-indexeddb/auto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../node';
import { openHarnessDb, type HarnessDb } from '../storage';
import { listWorkspaces, type OpfsRoot } from '../workspaces';
import { zipOf } from './archive-test-kit';
import { importZipAsWorkspace } from './import-zip';

let db: HarnessDb | undefined;
const roots: string[] = [];
afterEach(async () => {
  db?.close();
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

/** An OPFS stand-in whose `workspaces/<id>` folders are Node temp folders, so the import writes real files. */
async function opfsOnDisk() {
  const base = await mkdtemp(join(tmpdir(), 'i-zip-ws-'));
  roots.push(base);
  const children = new Set<string>();
  const workspaces = {
    async getDirectoryHandle(name: string, opts?: { create?: boolean }) {
      if (!children.has(name)) {
        if (!opts?.create) throw new DOMException('not found', 'NotFoundError');
        children.add(name);
      }
      return { name, kind: 'directory' };
    },
    async removeEntry(name: string) {
      if (!children.delete(name)) throw new DOMException('not found', 'NotFoundError');
      await rm(join(base, name), { recursive: true, force: true });
    },
  };
  const opfsRoot = (async () => ({ getDirectoryHandle: async () => workspaces })) as unknown as OpfsRoot;
  const openFs = async (record: { id: string }) => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(base, record.id), { recursive: true });
    return createNodeWorkspaceFs({ root: join(base, record.id), access: 'read-write' });
  };
  return { base, children, opfsRoot, openFs };
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  throw new Error('not found');
}

it('deletes the new workspace and its files when unpacking fails half-way (a bad checksum in the second file)', async () => {
  db = await openHarnessDb(`zip-ws-${crypto.randomUUID()}`);
  const opfs = await opfsOnDisk();
  const bad = await zipOf(
    [
      { name: 'first.txt', data: 'written before the failure' },
      { name: 'second.txt', data: 'corrupt data', options: { level: 0 } },
    ],
    { dataDescriptor: false },
  );
  // The second entry is stored, so its text is in the archive as is: flip a byte of it.
  const at = indexOf(bad, new TextEncoder().encode('corrupt data'));
  bad[at] = (bad[at] as number) ^ 0xff;
  await expect(
    importZipAsWorkspace(db, { name: 'Half', archive: new Blob([bad]), openFs: opfs.openFs, opfsRoot: opfs.opfsRoot }),
  ).rejects.toMatchObject({ code: 'E_PACKAGE_CRC' });
  expect(await listWorkspaces(db)).toEqual([]);
  expect([...opfs.children]).toEqual([]);
  expect(await readdir(opfs.base)).toEqual([]);
});

it('lists the imported workspace with the archive’s files', async () => {
  db = await openHarnessDb(`zip-ws-${crypto.randomUUID()}`);
  const opfs = await opfsOnDisk();
  const archive = await zipOf([
    { name: 'README.md', data: '# hi' },
    { name: 'src/a.ts', data: 'export {}' },
  ]);
  const record = await importZipAsWorkspace(db, {
    name: 'Project',
    archive: new Blob([archive]),
    openFs: opfs.openFs,
    opfsRoot: opfs.opfsRoot,
  });
  expect((await listWorkspaces(db)).map((w) => [w.name, w.kind])).toEqual([['Project', 'opfs']]);
  expect((await readdir(join(opfs.base, record.id), { recursive: true })).sort()).toEqual([
    'README.md',
    'src',
    'src/a.ts',
  ]);
});
