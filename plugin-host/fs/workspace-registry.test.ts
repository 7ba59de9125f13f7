import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRY_MAX_BYTES } from './json-file-store';
import { MAX_WORKSPACE_ENTRIES, resolveWorkspaceId, workspaceRegistryPath } from './workspace-registry';
import { codeOf } from './workspace-fs-suite';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('workspace registry (data/workspaces.json)', () => {
  let base: string;
  let dataDir: string;
  let file: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-registry-'));
    dataDir = join(base, 'data');
    file = workspaceRegistryPath(dataDir);
    await mkdir(join(base, 'p1'));
    await mkdir(join(base, 'p2'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('binds a UUID v4 to the sha256 of the canonical path, once, and returns it again', async () => {
    const first = await resolveWorkspaceId(join(base, 'p1'), { dataDir });
    expect(first.created).toBe(true);
    expect(first.id).toMatch(UUID_V4);
    expect(first.digest).toBe(createHash('sha256').update(first.canonicalPath).digest('hex'));
    const again = await resolveWorkspaceId(join(base, 'p1') + '/', { dataDir });
    expect(again).toEqual({ ...first, created: false });
    const other = await resolveWorkspaceId(join(base, 'p2'), { dataDir });
    expect(other.id).not.toBe(first.id);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { version: number; workspaces: Record<string, { id: string }> };
    expect(stored.version).toBe(1);
    expect(stored.workspaces[first.digest]?.id).toBe(first.id);
    expect(JSON.stringify(stored)).not.toContain('p1');
  });

  it('gives a symlinked path to the same folder the same identity', async () => {
    await symlink(join(base, 'p1'), join(base, 'p1-link'), 'dir');
    const real = await resolveWorkspaceId(join(base, 'p1'), { dataDir });
    const viaLink = await resolveWorkspaceId(join(base, 'p1-link'), { dataDir });
    expect(viaLink.id).toBe(real.id);
    expect(viaLink.created).toBe(false);
  });

  it('never rewrites the file for an existing binding', async () => {
    await resolveWorkspaceId(join(base, 'p1'), { dataDir });
    const before = await readFile(file);
    const mtime = (await stat(file)).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    await resolveWorkspaceId(join(base, 'p1'), { dataDir });
    expect((await readFile(file)).equals(before)).toBe(true);
    expect((await stat(file)).mtimeMs).toBe(mtime);
  });

  it('binds one UUID when several callers resolve the same new folder at once', async () => {
    const all = await Promise.all(Array.from({ length: 6 }, () => resolveWorkspaceId(join(base, 'p1'), { dataDir })));
    expect(new Set(all.map((r) => r.id)).size).toBe(1);
    expect(all.filter((r) => r.created).length).toBe(1);
    const stored = JSON.parse(await readFile(file, 'utf8')) as { workspaces: Record<string, unknown> };
    expect(Object.keys(stored.workspaces)).toHaveLength(1);
  });

  it('holds at most 10000 bindings within the 2 MB read cap, refusing the next with a clear error', async () => {
    const workspaces: Record<string, { id: string; created_ms: number }> = {};
    for (let i = 0; i < MAX_WORKSPACE_ENTRIES; i += 1) {
      workspaces[createHash('sha256').update(`/projects/${i}`).digest('hex')] = { id: crypto.randomUUID(), created_ms: Date.now() };
    }
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${JSON.stringify({ version: 1, workspaces }, null, 2)}\n`);
    expect((await stat(file)).size).toBeLessThan(REGISTRY_MAX_BYTES);
    const before = await readFile(file);
    expect(await codeOf(resolveWorkspaceId(join(base, 'p1'), { dataDir }))).toBe('E_WORKSPACE_REGISTRY_FULL');
    expect((await readFile(file)).equals(before)).toBe(true);
  });

  it('keeps resolving existing bindings when full', async () => {
    const known = await resolveWorkspaceId(join(base, 'p1'), { dataDir, maxEntries: 1 });
    expect(await codeOf(resolveWorkspaceId(join(base, 'p2'), { dataDir, maxEntries: 1 }))).toBe('E_WORKSPACE_REGISTRY_FULL');
    expect((await resolveWorkspaceId(join(base, 'p1'), { dataDir, maxEntries: 1 })).id).toBe(known.id);
  });

  it('refuses a corrupt or oversized registry and leaves it untouched', async () => {
    await mkdir(dataDir, { recursive: true });
    for (const bad of ['{"version":1,"workspaces":{"nothex":{}}}', '{"version":2,"workspaces":{}}', '[]', '{"version":1,"workspaces":{},"x":1}']) {
      await writeFile(file, bad);
      expect(await codeOf(resolveWorkspaceId(join(base, 'p1'), { dataDir })), bad).toBe('E_JSON_CORRUPT');
      expect(await readFile(file, 'utf8')).toBe(bad);
    }
    await writeFile(file, ' '.repeat(REGISTRY_MAX_BYTES + 1));
    expect(await codeOf(resolveWorkspaceId(join(base, 'p1'), { dataDir }))).toBe('E_JSON_TOO_LARGE');
  });

  it('refuses a workspace path that is not an existing folder', async () => {
    expect(await codeOf(resolveWorkspaceId(join(base, 'missing'), { dataDir }))).toBe('E_WORKSPACE_PATH');
    await writeFile(join(base, 'file'), 'x');
    expect(await codeOf(resolveWorkspaceId(join(base, 'file'), { dataDir }))).toBe('E_WORKSPACE_PATH');
  });
});
