import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDirs, validatePathContext } from './dirs';
import { tempDirs } from './fixtures/support';
import { workspaceDigest, workspaceIdFor } from './workspace-registry';

describe('workspace registry', () => {
  it('assigns one UUID per canonical path, persists it, and never rewrites an existing binding', () => {
    const { dirs } = tempDirs();
    const a = workspaceIdFor(dirs.data_dir, '/p/a');
    const file = join(dirs.data_dir, 'workspaces.json');
    const before = readFileSync(file, 'utf8');
    expect(workspaceIdFor(dirs.data_dir, '/p/a')).toBe(a);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const b = workspaceIdFor(dirs.data_dir, '/p/b');
    expect(b).not.toBe(a);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 1,
      workspaces: { [workspaceDigest('/p/a')]: a, [workspaceDigest('/p/b')]: b },
    });
  });

  it('refuses to grow past 10000 entries and to read a file over 2 MB', () => {
    const { dirs } = tempDirs();
    mkdirSync(dirs.data_dir, { recursive: true });
    const file = join(dirs.data_dir, 'workspaces.json');
    const full: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++)
      full[workspaceDigest(`/w/${i}`)] = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    writeFileSync(file, JSON.stringify({ version: 1, workspaces: full }));
    expect(workspaceIdFor(dirs.data_dir, '/w/5')).toBe('00000000-0000-4000-8000-000000000005');
    expect(() => workspaceIdFor(dirs.data_dir, '/w/new')).toThrow(/10000/);
    writeFileSync(file, ' '.repeat(2 * 1024 * 1024 + 1));
    expect(() => workspaceIdFor(dirs.data_dir, '/w/5')).toThrow(/larger than/);
  });

  it('refuses a registry holding an invalid entry instead of guessing', () => {
    const { dirs } = tempDirs();
    mkdirSync(dirs.data_dir, { recursive: true });
    writeFileSync(join(dirs.data_dir, 'workspaces.json'), '{"version":1,"workspaces":{"zz":"not-a-uuid"}}');
    expect(() => workspaceIdFor(dirs.data_dir, '/x')).toThrow(/invalid entry/);
  });
});

describe('path context', () => {
  it('takes the four directories from I_*_DIR or ~/.i', () => {
    const d = resolveDirs({ HOME: '/home/u', I_DATA_DIR: '/srv/data' });
    expect(d).toEqual({
      config_dir: '/home/u/.i/config',
      data_dir: '/srv/data',
      cache_dir: '/home/u/.i/cache',
      runtime_dir: '/home/u/.i/runtime',
    });
  });

  it('refuses relative paths, "..", and config/data under cache/runtime', () => {
    const ok = { config_dir: '/a/config', data_dir: '/a/data', cache_dir: '/a/cache', runtime_dir: '/a/runtime' };
    expect(() => validatePathContext(ok)).not.toThrow();
    expect(() => validatePathContext({ ...ok, data_dir: 'rel/data' })).toThrow(/paths.data_dir/);
    expect(() => validatePathContext({ ...ok, config_dir: '/a/../etc' })).toThrow(/paths.config_dir/);
    expect(() => validatePathContext({ ...ok, data_dir: '/a/cache/data' })).toThrow(/under cache_dir/);
    expect(() => validatePathContext({ ...ok, config_dir: '/a/runtime' })).toThrow(/under runtime_dir/);
  });
  it('leaves a live holder’s lock alone, even after 10 s, and takes over a crashed one (dead pid, or older than 30 s)', () => {
    const { dirs } = tempDirs();
    mkdirSync(dirs.data_dir, { recursive: true });
    const lock = join(dirs.data_dir, 'workspaces.json.lock');
    const aged = (seconds: number) => {
      const t = (Date.now() - seconds * 1000) / 1000;
      utimesSync(lock, t, t);
    };
    // A live i (this very process) took the lock 15 s ago: the bridge waits, then says so; the lock stays.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'live', created_ms: 0 }));
    aged(15);
    expect(() => workspaceIdFor(dirs.data_dir, '/p/live')).toThrow(/registry is locked/);
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ nonce: 'live' });
    // The holder crashed (no such process on this host): the lock is taken over at once and released after.
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), nonce: 'dead', created_ms: 0 }));
    expect(workspaceIdFor(dirs.data_dir, '/p/dead')).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(lock)).toBe(false);
    // Older than 30 s, whoever held it: stale.
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'old', created_ms: 0 }));
    aged(31);
    expect(workspaceIdFor(dirs.data_dir, '/p/old')).toMatch(/^[0-9a-f-]{36}$/);
    expect(existsSync(lock)).toBe(false);
  });
});
