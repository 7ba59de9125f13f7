import { createFsaWorkspaceFs } from '../../contracts/fs';
import { defineSkillsSuite } from './skills-suite';

defineSkillsSuite('File System Access over OPFS', async () => {
  const opfs = await navigator.storage.getDirectory();
  const name = `skills-${crypto.randomUUID()}`;
  const dir = await opfs.getDirectoryHandle(name, { create: true });
  return {
    fs: createFsaWorkspaceFs(dir, { access: 'read-write' }),
    cleanup: () => opfs.removeEntry(name, { recursive: true }),
  };
});
