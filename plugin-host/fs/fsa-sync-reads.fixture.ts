// The dedicated Worker of fsa-sync-reads.browser.test.ts: runs one scenario on the File System Access WorkspaceFs
// over an OPFS folder the test made, counting the synchronous access handles the fs opens.
import { createFsaWorkspaceFs } from './fsa-workspace-fs';

type SyncProto = { createSyncAccessHandle(this: FileSystemFileHandle, options?: { mode?: string }): Promise<{ close(): void }> };
const proto = FileSystemFileHandle.prototype as unknown as SyncProto;
const original = proto.createSyncAccessHandle;
let opened = 0;
proto.createSyncAccessHandle = function (options) {
  opened++;
  return original.call(this, options);
};
type WritableProto = { createWritable(this: FileSystemFileHandle, options?: object): Promise<FileSystemWritableFileStream> };
const wproto = FileSystemFileHandle.prototype as unknown as WritableProto;
const originalWritable = wproto.createWritable;
let writables = 0;
wproto.createWritable = function (options) {
  writables++;
  return originalWritable.call(this, options);
};

async function scenario(step: string, folder: string): Promise<Record<string, unknown>> {
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
  const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
  const file = await dir.getFileHandle('a.txt');
  if (step === 'read') {
    const text = await fs.readText('a.txt');
    const byFs = opened;
    // An exclusive handle opens at once only if the fs let go of its own.
    (await original.call(file)).close();
    return { text, byFs, closedAfterRead: true };
  }
  if (step === 'small') return { text: await fs.readText('small.txt'), byFs: opened };
  if (step === 'read-while-writing') {
    const text = await fs.readText('a.txt');
    return { text, byFs: opened };
  }
  if (step === 'before-commit') {
    // The checkpoint recorder's hook reads the file while the write is under way: through getFile(), never a
    // synchronous handle (it would meet the write's lock); it sees the old contents, and one createWritable does.
    let seen = '';
    await fs.writeText('a.txt', 'second', { beforeCommit: async () => void (seen = await fs.readText('a.txt')) });
    return { seen: seen.length, seenStart: seen.slice(0, 5), text: await (await file.getFile()).text(), writables, byFs: opened };
  }
  // write-while-read: another reader holds a read-only handle for 30 ms; the write waits for it, then lands.
  const held = await original.call(file, { mode: 'read-only' });
  setTimeout(() => held.close(), 30);
  await fs.writeText('a.txt', 'written');
  return { text: await (await file.getFile()).text() };
}

self.onmessage = (e: MessageEvent<{ step: string; folder: string }>) => {
  scenario(e.data.step, e.data.folder).then(
    (result) => self.postMessage(result),
    (error: unknown) => self.postMessage({ error: String((error as { code?: string }).code ?? error) }),
  );
};
