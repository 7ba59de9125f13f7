import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runPathsCommand, type PathsDocument } from './paths-command';
import { testWorkspaceId } from './workspace-test-kit';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

async function paths(argv: string[], env: Record<string, string>, cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await runPathsCommand({
    argv,
    env,
    cwd,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    signal: new AbortController().signal,
    version: 'test',
  });
  return { code, stdout, stderr };
}

function home() {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'i-paths-')));
  roots.push(root);
  const project = join(root, 'project');
  mkdirSync(project);
  return { root, project };
}

describe('i paths', () => {
  it("prints the four folders from I_*_DIR / HOME and the project's registry UUID (--json)", async () => {
    const { root, project } = home();
    const env = { HOME: root, I_DATA_DIR: join(root, 'state') };
    const r = await paths(['-C', 'project', '--json'], env, root);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as PathsDocument;
    const id = testWorkspaceId(join(root, 'state'), project); // reads the binding `i paths` made
    expect(doc).toEqual({
      version: 1,
      workspace: project,
      workspace_id: id,
      workspace_id_source: 'registry',
      registry: join(root, 'state', 'workspaces.json'),
      workspace_state: join(root, 'state', 'workspaces', id),
      paths: {
        config_dir: join(root, '.i', 'config'),
        data_dir: join(root, 'state'),
        cache_dir: join(root, '.i', 'cache'),
        runtime_dir: join(root, '.i', 'runtime'),
      },
    });
    // The same folder, asked again in words, keeps its id.
    const text = await paths(['-C', project], env, '/');
    expect(text.stdout).toContain(`workspace_id  ${id}  (${join(root, 'state', 'workspaces.json')})`);
    expect(text.stdout).toContain(`cache_dir     ${join(root, '.i', 'cache')}`);
  });

  it('shows an explicit --workspace-id only when it is a UUID', async () => {
    const { root, project } = home();
    const ok = await paths(
      ['-C', project, '--workspace-id', '0F0E0D0C-0B0A-4908-8706-050403020100', '--json'],
      { HOME: root },
      root,
    );
    expect(JSON.parse(ok.stdout)).toMatchObject({
      workspace_id: '0f0e0d0c-0b0a-4908-8706-050403020100',
      workspace_id_source: 'explicit',
    });
    const bad = await paths(['-C', project, '--workspace-id', 'my-project'], { HOME: root }, root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error E_WORKSPACE_ID_INVALID: --workspace-id must be a UUID/);
  });

  it('exits 2 with a code for a missing folder, an unknown option and a relative I_DATA_DIR', async () => {
    const { root } = home();
    expect((await paths(['-C', 'nope'], { HOME: root }, root)).stderr).toMatch(/^error E_WORKSPACE_INVALID: /);
    expect((await paths(['--bogus'], { HOME: root }, root)).stderr).toMatch(/^error E_USAGE: Unknown option --bogus/);
    const rel = await paths(['--json'], { HOME: root, I_DATA_DIR: 'data' }, root);
    expect(rel.code).toBe(2);
    expect(JSON.parse(rel.stdout)).toMatchObject({ type: 'error', error: { code: 'E_PATH_ENV_INVALID' } });
  });
});
