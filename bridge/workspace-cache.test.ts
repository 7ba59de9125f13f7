import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from './fixtures/support';
import { WorkspaceAuthorizer, WorkspaceIds } from './workspace-cache';
import { workspaceDigest } from './workspace-registry';

const clock = () => {
  const c = { t: 1_000_000, now: () => c.t };
  return c;
};

describe('workspace ids between calls', () => {
  it('serves a resolved id without touching the registry, and notices a changed registry after the recheck interval', () => {
    const { dirs } = tempDirs();
    const c = clock();
    const ids = new WorkspaceIds(dirs.data_dir, 1000, c.now);
    const file = join(dirs.data_dir, 'workspaces.json');
    const first = ids.idFor('/p/a');
    expect(ids.idFor('/p/a')).toBe(first);
    unlinkSync(file);
    c.t += 999;
    expect(ids.idFor('/p/a')).toBe(first); // no read, no write: the registry is not recreated
    expect(existsSync(file)).toBe(false);
    c.t += 1;
    const second = ids.idFor('/p/a'); // the file is gone: resolved again and bound anew
    expect(second).not.toBe(first);
    expect(JSON.parse(readFileSync(file, 'utf8')).workspaces[workspaceDigest('/p/a')]).toBe(second);
    // A hand edit that rebinds the path is picked up after the interval too.
    writeFileSync(
      file,
      JSON.stringify({ version: 1, workspaces: { [workspaceDigest('/p/a')]: '00000000-0000-4000-8000-00000000000a' } }),
    );
    c.t += 1000;
    expect(ids.idFor('/p/a')).toBe('00000000-0000-4000-8000-00000000000a');
  });
});

describe('workspace authorisation between calls', () => {
  it('maps a root spelling without re-resolving it inside the interval, and refuses a root swapped for a symlink after it', () => {
    const { root } = tempDirs();
    const project = join(root, 'project');
    const elsewhere = join(root, 'elsewhere');
    mkdirSync(project);
    mkdirSync(elsewhere);
    const c = clock();
    const auth = new WorkspaceAuthorizer([project], 1000, c.now);
    expect(auth.authorize(project)).toBe(project);
    expect(auth.authorize(`${project}/`)).toBe(project);
    renameSync(project, join(root, 'moved'));
    symlinkSync(elsewhere, project);
    c.t += 500;
    expect(auth.authorize(project)).toBe(project); // inside the interval: no file-system access
    c.t += 500;
    expect(() => auth.authorize(project)).toThrow(expect.objectContaining({ code: 'E_WORKSPACE_DENIED' }));
    expect(() => auth.authorize(elsewhere)).toThrow(expect.objectContaining({ code: 'E_WORKSPACE_DENIED' }));
    expect(() => auth.authorize('relative/path')).toThrow(expect.objectContaining({ code: 'E_WORKSPACE_INVALID' }));
  });
});
