import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { ToolContext } from '../../contracts/tools';
import { defineBuiltinToolsSuite, type ToolsHarness } from './builtin-tools-suite';
import { globTool, searchTool } from './index';
import { defineProtectedPathsSuite } from './protected-paths-suite';

const nodeHarness = async (): Promise<ToolsHarness> => {
  const base = await mkdtemp(join(tmpdir(), 'i-tools-'));
  const root = join(base, 'root');
  await mkdir(root);
  return {
    open: (access) => createNodeWorkspaceFs({ root, access }),
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
};
defineBuiltinToolsSuite('Node fs over a temp folder', nodeHarness);
defineProtectedPathsSuite('Node fs over a temp folder', nodeHarness);

// Node only: the browser backend never shows links, so only here can a walk meet one (seed 000 §9: search skips
// symbolic links, also those that stay inside the workspace).
describe('glob and search skip symbolic links (Node)', () => {
  let base: string;
  let ctx: ToolContext;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-tools-link-'));
    const root = join(base, 'root');
    await mkdir(join(root, 'src'), { recursive: true });
    await writeFile(join(root, 'src', 'real.ts'), 'const needle = 1;\n');
    await symlink('real.ts', join(root, 'src', 'alias.ts'));
    await symlink('src', join(root, 'mirror'), 'dir');
    await symlink('.', join(root, 'src', 'loop'), 'dir');
    ctx = {
      fs: await createNodeWorkspaceFs({ root, access: 'read' }),
      workspaceId: 'ws',
      callId: 'c1',
      signal: new AbortController().signal,
    };
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('search reports the real file once, never through a file link, a folder link or a link loop', async () => {
    const result = await searchTool().execute({ pattern: 'needle' }, ctx);
    expect(result.output).toBe('src/real.ts:1: const needle = 1;');
  });

  it('glob lists only the real file', async () => {
    const result = await globTool().execute({ pattern: '**/*.ts' }, ctx);
    expect(result.output).toBe('src/real.ts');
  });
});
