// In a dedicated Worker (where the agent runs) the File System Access WorkspaceFs reads a private workspace's files
// through synchronous access handles, held for one read only; a writer elsewhere is never refused because of them.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SYNC_MIN_BYTES } from './fsa-sync-read';
import { createFsaWorkspaceFs } from './fsa-workspace-fs';

// Large enough for a synchronous handle (small files are read through getFile(), which was faster for them).
const FIRST = `first${'.'.repeat(SYNC_MIN_BYTES)}`;

let folder = '';
let dir: FileSystemDirectoryHandle;
beforeEach(async () => {
  folder = `sync-${crypto.randomUUID()}`;
  dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder, { create: true });
  const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
  await fs.writeText('a.txt', FIRST);
  await fs.writeText('small.txt', 'small');
});
afterEach(async () => {
  await (await navigator.storage.getDirectory()).removeEntry(folder, { recursive: true });
});

function inWorker(step: string): Promise<Record<string, unknown>> {
  const worker = new Worker(new URL('./fsa-sync-reads.fixture.ts', import.meta.url), { type: 'module' });
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(e.message || 'the worker failed'));
    worker.postMessage({ step, folder });
  }).finally(() => worker.terminate());
}

it('reads through one synchronous access handle in a Worker and closes it before the read returns', async () => {
  expect(await inWorker('read')).toEqual({ text: FIRST, byFs: 1, closedAfterRead: true });
});

it('reads a small file through getFile(), without a synchronous handle', async () => {
  expect(await inWorker('small')).toEqual({ text: 'small', byFs: 0 });
});

it('reads the current content when a writer holds the file (the handle is refused, getFile() is used)', async () => {
  const writable = await (await dir.getFileHandle('a.txt')).createWritable();
  try {
    await writable.write('not yet committed');
    expect(await inWorker('read-while-writing')).toEqual({ text: FIRST, byFs: 1 });
  } finally {
    await writable.close();
  }
});

it('lets a write wait for a reader that holds a synchronous handle instead of failing E_FS_BUSY', async () => {
  expect(await inWorker('write-while-read')).toEqual({ text: 'written' });
});

it('runs beforeCommit in a Worker while the file still holds its contents; its read of the file being written takes no synchronous handle', async () => {
  expect(await inWorker('before-commit')).toEqual({
    seen: FIRST.length,
    seenStart: 'first',
    text: 'second',
    writables: 1,
    byFs: 0,
  });
});
