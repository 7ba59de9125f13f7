import { createFsaWorkspaceFs } from '../../fs';
import { defineBuiltinToolsSuite } from './builtin-tools-suite';

// Each test gets its own OPFS folder, as the app's private workspaces do.
defineBuiltinToolsSuite('File System Access over OPFS', async () => {
  const opfs = await navigator.storage.getDirectory();
  const name = `tools-${crypto.randomUUID()}`;
  const dir = await opfs.getDirectoryHandle(name, { create: true });
  return {
    open: async (access) => createFsaWorkspaceFs(dir, { access }),
    cleanup: () => opfs.removeEntry(name, { recursive: true }),
  };
});
