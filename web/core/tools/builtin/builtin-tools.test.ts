import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import { defineBuiltinToolsSuite } from './builtin-tools-suite';

defineBuiltinToolsSuite('Node fs over a temp folder', async () => {
  const base = await mkdtemp(join(tmpdir(), 'i-tools-'));
  const root = join(base, 'root');
  await mkdir(root);
  return {
    open: (access) => createNodeWorkspaceFs({ root, access }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
});
