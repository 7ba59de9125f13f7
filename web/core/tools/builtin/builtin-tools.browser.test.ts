import { createFsaWorkspaceFs } from '../../contracts/fs';
import { defineBuiltinToolsSuite, type ToolsHarness } from './builtin-tools-suite';
import { defineProtectedPathsSuite } from './protected-paths-suite';

// Each test gets its own OPFS folder, as the app's private workspaces do.
const opfsHarness = async (): Promise<ToolsHarness> => {
  const opfs = await navigator.storage.getDirectory();
  const name = `tools-${crypto.randomUUID()}`;
  const dir = await opfs.getDirectoryHandle(name, { create: true });
  return {
    open: async (access) => createFsaWorkspaceFs(dir, { access }),
    cleanup: () => opfs.removeEntry(name, { recursive: true }),
  };
};
defineBuiltinToolsSuite('File System Access over OPFS', opfsHarness);
defineProtectedPathsSuite('File System Access over OPFS', opfsHarness);
