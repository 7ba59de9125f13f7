// Node only (git is a program): the nested .gitignore case of nested-ignore-case.ts built as a real repository,
// and what git lists as untracked and not ignored compared with what glob and search list over the same folder.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { ToolContext } from '../../contracts/tools';
import { globTool } from './glob';
import { ancestorLevels } from './ignore-rules';
import { SKIPPED_DIRS } from '../../contracts/tool-limits';
import { searchTool } from './search';
import { NESTED_IGNORE_EXPECTED, NESTED_IGNORE_FILES, NESTED_IGNORE_PATHS } from './nested-ignore-case';

const run = promisify(execFile);
let base: string;
let root: string;
let ctx: ToolContext;
let gitListed: string[];

/** git with no user or system configuration (no global excludes file); matching case-insensitive like the walk. */
async function git(...args: string[]): Promise<string> {
  const env = {
    ...process.env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    XDG_CONFIG_HOME: base,
    HOME: base,
  };
  return (await run('git', ['-c', 'core.ignorecase=true', ...args], { cwd: root, env })).stdout;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'i-ignore-git-'));
  root = join(base, 'repo');
  const files: Record<string, string> = { ...NESTED_IGNORE_FILES };
  for (const p of NESTED_IGNORE_PATHS) files[p] = 'needle\n';
  for (const [p, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, p)), { recursive: true });
    await writeFile(join(root, p), text);
  }
  await git('init', '-q');
  gitListed = (await git('ls-files', '--others', '--exclude-standard', '-z')).split('\0').filter(Boolean);
  ctx = {
    fs: await createNodeWorkspaceFs({ root, access: 'read' }),
    workspaceId: 'ws',
    callId: 'c1',
    signal: new AbortController().signal,
  };
});
afterAll(() => rm(base, { recursive: true, force: true }));

/** git's list as the walk sees a tree: no hidden names (the ignore files themselves), no build folders. */
const walkable = (paths: string[], enter: string[] = []) =>
  paths.filter((p) =>
    p
      .split('/')
      .every(
        (name, i, names) =>
          !name.startsWith('.') && (i === names.length - 1 || !SKIPPED_DIRS.has(name) || enter.includes(name)),
      ),
  );
const sorted = (paths: string[]) => [...paths].sort();
const searched = (output: string) => output.split('\n').map((line) => line.replace(/:1: needle$/, ''));

describe('nested .gitignore negations: glob and search list what git lists', () => {
  it("the expected lists are git's own", () => {
    expect(sorted(walkable(gitListed))).toEqual(sorted(NESTED_IGNORE_EXPECTED.all));
    expect(sorted(walkable(gitListed, ['node_modules']).filter((p) => p.split('/').includes('node_modules')))).toEqual(
      sorted(NESTED_IGNORE_EXPECTED.nodeModules),
    );
    expect(sorted(walkable(gitListed).filter((p) => p.startsWith('pkg/sub/')))).toEqual(
      sorted(NESTED_IGNORE_EXPECTED.pkgSub),
    );
  });

  it("glob ** and search list exactly git's untracked, not ignored files", async () => {
    expect((await globTool().execute({ pattern: '**' }, ctx)).output).toBe(NESTED_IGNORE_EXPECTED.all.join('\n'));
    expect(searched((await searchTool().execute({ pattern: 'needle' }, ctx)).output)).toEqual(
      NESTED_IGNORE_EXPECTED.all,
    );
  });

  it('a nested !/node_modules/ re-includes its own node_modules only, as git does', async () => {
    expect((await globTool().execute({ pattern: '**/node_modules/**' }, ctx)).output).toBe(
      NESTED_IGNORE_EXPECTED.nodeModules.join('\n'),
    );
  });

  it('a search below the root applies the rules of the folders above it, as git does', async () => {
    expect(searched((await searchTool().execute({ pattern: 'needle', path: 'pkg/sub' }, ctx)).output)).toEqual(
      NESTED_IGNORE_EXPECTED.pkgSub,
    );
  });

  it('judges the folders on the way to a searched path as git check-ignore does', async () => {
    const gitIgnores = async (path: string) => {
      try {
        await git('check-ignore', '-q', path);
        return true;
      } catch {
        return false; // exit code 1: not ignored
      }
    };
    // The root has a .gitignore, so a start whose folders are all kept has at least that level; an excluded one
    // (named on purpose, walked with only its own files) has none.
    const walkExcludes = async (path: string) => (await ancestorLevels(ctx.fs, path, [])).length === 0;
    for (const folder of [
      'pkg/node_modules',
      'pkg/sub/node_modules',
      'app/vendor',
      'app/cache/lib',
      'pkg/sub/cache',
      'pkg/cache',
      'logs/keep',
      'pkg/sub/local',
      'pkg/local',
    ]) {
      expect([folder, await walkExcludes(folder)]).toEqual([folder, await gitIgnores(`${folder}/`)]);
    }
  });
});
