import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { headlessWorkspaceId, registryWorkspaceId, workspaceDigest } from './workspace-id';
import { legacyWorkspaceKey } from './workspace-migrate';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'i-registry-'));
  dirs.push(d);
  return d;
};
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the workspace registry as headless i keeps it', () => {
  it('binds one UUID per folder in the bridge format and never rewrites an existing binding', async () => {
    const data = dataDir();
    const file = join(data, 'workspaces.json');
    const a = await registryWorkspaceId(data, '/p/a');
    expect(a.created).toBe(true);
    expect(a.id).toMatch(UUID);
    const before = readFileSync(file, 'utf8');
    const mtime = statSync(file).mtimeMs;
    expect(await registryWorkspaceId(data, '/p/a')).toEqual({ id: a.id, created: false });
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const b = await registryWorkspaceId(data, '/p/b');
    expect(b.id).not.toBe(a.id);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      workspaces: { [workspaceDigest('/p/a')]: a.id, [workspaceDigest('/p/b')]: b.id },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads a binding the bridge wrote (compact JSON, its key) and keeps fields it does not know when adding one', async () => {
    const data = dataDir();
    const id = '0f0e0d0c-0b0a-4908-8706-050403020100';
    writeFileSync(
      join(data, 'workspaces.json'),
      JSON.stringify({ version: 1, workspaces: { [workspaceDigest('/srv/proj')]: id }, note: 'kept' }),
    );
    expect((await registryWorkspaceId(data, '/srv/proj')).id).toBe(id);
    await registryWorkspaceId(data, '/srv/other');
    const after = JSON.parse(readFileSync(join(data, 'workspaces.json'), 'utf8')) as {
      note: string;
      workspaces: Record<string, string>;
    };
    expect(after.note).toBe('kept');
    expect(after.workspaces[workspaceDigest('/srv/proj')]).toBe(id);
  });

  it('gives concurrent first runs on one folder the same UUID and writes one entry', async () => {
    const data = dataDir();
    const ids = await Promise.all(Array.from({ length: 6 }, () => registryWorkspaceId(data, '/p/same')));
    expect(new Set(ids.map((r) => r.id)).size).toBe(1);
    expect(ids.filter((r) => r.created)).toHaveLength(1);
    expect(
      Object.keys(
        (JSON.parse(readFileSync(join(data, 'workspaces.json'), 'utf8')) as { workspaces: object }).workspaces,
      ),
    ).toHaveLength(1);
  });

  it('refuses a 10,001st folder, a file over 2 MB and an invalid entry, leaving the file as it was', async () => {
    const data = dataDir();
    const file = join(data, 'workspaces.json');
    const full: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++)
      full[workspaceDigest(`/w/${i}`)] = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    writeFileSync(file, JSON.stringify({ version: 1, workspaces: full }));
    expect((await registryWorkspaceId(data, '/w/7')).id).toBe('00000000-0000-4000-8000-000000000007');
    expect(await codeOf(registryWorkspaceId(data, '/w/new'))).toBe('E_REGISTRY_FULL');
    expect(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { workspaces: object }).workspaces)).toHaveLength(
      10_000,
    );
    writeFileSync(file, ' '.repeat(2 * 1024 * 1024 + 1));
    expect(await codeOf(registryWorkspaceId(data, '/w/7'))).toBe('E_REGISTRY_INVALID');
    writeFileSync(file, '{"version":1,"workspaces":{"zz":"not-a-uuid"}}');
    expect(await codeOf(registryWorkspaceId(data, '/x'))).toBe('E_REGISTRY_INVALID');
    expect(readFileSync(file, 'utf8')).toBe('{"version":1,"workspaces":{"zz":"not-a-uuid"}}');
  });

  it('waits for the lock another process holds (the bridge creates workspaces.json.lock the same way) and then says so', async () => {
    const data = dataDir();
    writeFileSync(join(data, 'workspaces.json.lock'), '');
    expect(await codeOf(registryWorkspaceId(data, '/p/a', { lockTimeoutMs: 150 }))).toBe('E_REGISTRY_LOCKED');
    expect(existsSync(join(data, 'workspaces.json'))).toBe(false);
  });
});

describe("a headless run's workspace id", () => {
  it('takes an explicit --workspace-id only when it is a UUID, and does not touch the registry for it', async () => {
    const data = dataDir();
    expect(await headlessWorkspaceId(data, '/p/a', '0F0E0D0C-0B0A-4908-8706-050403020100')).toEqual({
      id: '0f0e0d0c-0b0a-4908-8706-050403020100',
      source: 'explicit',
      warnings: [],
    });
    expect(existsSync(join(data, 'workspaces.json'))).toBe(false);
    for (const bad of ['abc', '../x', '0f0e0d0c0b0a49088706050403020100', ''])
      expect(await codeOf(headlessWorkspaceId(data, '/p/a', bad))).toBe('E_WORKSPACE_ID_INVALID');
  });

  it('moves the data an older i kept under the path hash (memory, cache statistics) under the UUID', async () => {
    const data = dataDir();
    const old = join(data, 'workspaces', legacyWorkspaceKey('/p/a'));
    mkdirSync(join(old, 'metrics'), { recursive: true });
    writeFileSync(join(old, 'memory.json'), '{"version":1,"entries":{"k":"v"}}');
    writeFileSync(join(old, 'metrics', 'cache-stats.json'), '{"stats":1}');
    const { id, warnings } = await headlessWorkspaceId(data, '/p/a', null);
    expect(warnings).toEqual([]);
    expect(readFileSync(join(data, 'workspaces', id, 'memory.json'), 'utf8')).toBe('{"version":1,"entries":{"k":"v"}}');
    expect(readFileSync(join(data, 'workspaces', id, 'metrics', 'cache-stats.json'), 'utf8')).toBe('{"stats":1}');
    expect(existsSync(old)).toBe(false);
    // A second run finds nothing more to move.
    expect(await headlessWorkspaceId(data, '/p/a', null)).toEqual({ id, source: 'registry', warnings: [] });
  });

  it('keeps both files when the UUID folder already has one of the same name, and says where the old one is', async () => {
    const data = dataDir();
    const { id } = await registryWorkspaceId(data, '/p/a');
    const old = join(data, 'workspaces', legacyWorkspaceKey('/p/a'));
    mkdirSync(old, { recursive: true });
    writeFileSync(join(old, 'memory.json'), 'old memory');
    writeFileSync(join(old, 'notes.json'), 'old notes');
    mkdirSync(join(data, 'workspaces', id), { recursive: true });
    writeFileSync(join(data, 'workspaces', id, 'memory.json'), 'bridge memory');
    const { warnings } = await headlessWorkspaceId(data, '/p/a', null);
    expect(readFileSync(join(data, 'workspaces', id, 'memory.json'), 'utf8')).toBe('bridge memory');
    expect(readFileSync(join(old, 'memory.json'), 'utf8')).toBe('old memory');
    expect(readFileSync(join(data, 'workspaces', id, 'notes.json'), 'utf8')).toBe('old notes');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(join(old, 'memory.json'));
    expect(warnings[0]).toContain('merge them by hand');
  });
});
