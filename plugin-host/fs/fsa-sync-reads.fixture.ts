// The dedicated Worker of fsa-sync-reads.browser.test.ts: runs one scenario on the File System Access WorkspaceFs
// over an OPFS folder the test made, counting the synchronous access handles and writables the fs opens.
import { createFsaWorkspaceFs } from './fsa-workspace-fs';

type SyncProto = {
  createSyncAccessHandle(this: FileSystemFileHandle, options?: { mode?: string }): Promise<{ close(): void }>;
};
type Counted = Record<string, (this: FileSystemFileHandle, ...args: never[]) => unknown>;
const calls = { createSyncAccessHandle: 0, createWritable: 0 };

/** Counts the calls of one FileSystemFileHandle method, in this Worker, keeping what it does. */
function count(name: keyof typeof calls) {
  const proto = FileSystemFileHandle.prototype as unknown as Counted;
  const method = proto[name]!;
  proto[name] = function (this: FileSystemFileHandle, ...args: never[]) {
    calls[name]++;
    return method.apply(this, args);
  };
}
// Uncounted, for the scenarios' own handles.
const original = (FileSystemFileHandle.prototype as unknown as SyncProto).createSyncAccessHandle;
count('createSyncAccessHandle');
count('createWritable');

async function scenario(step: string, folder: string): Promise<Record<string, unknown>> {
  const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(folder);
  const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
  const file = await dir.getFileHandle('a.txt');
  if (step === 'read') {
    const text = await fs.readText('a.txt');
    const byFs = calls.createSyncAccessHandle;
    // An exclusive handle opens at once only if the fs let go of its own.
    (await original.call(file)).close();
    return { text, byFs, closedAfterRead: true };
  }
  if (step === 'small') return { text: await fs.readText('small.txt'), byFs: calls.createSyncAccessHandle };
  if (step === 'read-while-writing') {
    const text = await fs.readText('a.txt');
    return { text, byFs: calls.createSyncAccessHandle };
  }
  if (step === 'before-commit') {
    // The checkpoint recorder's hook reads the file while the write is under way: through getFile(), never a
    // synchronous handle (it would meet the write's lock); it sees the old contents, and one createWritable does.
    let seen = '';
    await fs.writeText('a.txt', 'second', { beforeCommit: async () => void (seen = await fs.readText('a.txt')) });
    return {
      seen: seen.length,
      seenStart: seen.slice(0, 5),
      text: await (await file.getFile()).text(),
      writables: calls.createWritable,
      byFs: calls.createSyncAccessHandle,
    };
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
