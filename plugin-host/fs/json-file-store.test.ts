import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REGISTRY_MAX_BYTES, readJsonFile, updateJsonFile, withFileLock, writeJsonFileAtomic } from './json-file-store';
import { codeOf } from './workspace-fs-suite';

describe('JSON registry files', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'i-json-'));
    file = join(dir, 'data', 'registry.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a missing file as undefined and a written one back, leaving no temp file and mode 0600', async () => {
    expect(await readJsonFile(file)).toBeUndefined();
    await writeJsonFileAtomic(file, { a: [1, 'é'] });
    expect(await readJsonFile(file)).toEqual({ a: [1, 'é'] });
    expect(await readdir(join(dir, 'data'))).toEqual(['registry.json']);
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('reads up to 2 MB and refuses one byte more', async () => {
    await writeJsonFileAtomic(file, {});
    await writeFile(file, `"${'a'.repeat(REGISTRY_MAX_BYTES - 2)}"`);
    expect(((await readJsonFile(file)) as string).length).toBe(REGISTRY_MAX_BYTES - 2);
    await writeFile(file, `"${'a'.repeat(REGISTRY_MAX_BYTES - 1)}"`);
    expect(await codeOf(readJsonFile(file))).toBe('E_JSON_TOO_LARGE');
  });

  it('refuses to write a file the next reader would refuse, keeping the old one', async () => {
    await writeJsonFileAtomic(file, { keep: true });
    expect(await codeOf(writeJsonFileAtomic(file, 'x'.repeat(REGISTRY_MAX_BYTES)))).toBe('E_JSON_TOO_LARGE');
    expect(await readJsonFile(file)).toEqual({ keep: true });
    expect(await readdir(join(dir, 'data'))).toEqual(['registry.json']);
  });

  it('refuses broken JSON and non-UTF-8 bytes as corrupt', async () => {
    await writeJsonFileAtomic(file, {});
    await writeFile(file, '{"a":');
    expect(await codeOf(readJsonFile(file))).toBe('E_JSON_CORRUPT');
    await writeFile(file, Buffer.from([0x22, 0xff, 0x22]));
    expect(await codeOf(readJsonFile(file))).toBe('E_JSON_CORRUPT');
  });

  it('serialises concurrent read-modify-write cycles through the lock file, losing no update', async () => {
    const bump = () =>
      updateJsonFile(file, (current) => {
        const n = typeof current === 'number' ? current : 0;
        return { value: n + 1, result: n + 1 };
      });
    const results = await Promise.all(Array.from({ length: 15 }, bump));
    expect(await readJsonFile(file)).toBe(15);
    expect([...results].sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    expect(await readdir(join(dir, 'data'))).toEqual(['registry.json']);
  });

  it('waits a bounded time for a live lock, then fails with E_LOCK_TIMEOUT and leaves that lock alone', async () => {
    await writeJsonFileAtomic(file, 1);
    const lock = JSON.stringify({ pid: process.ppid, host: hostname(), nonce: 'held', created_ms: Date.now() });
    await writeFile(`${file}.lock`, lock);
    const started = Date.now();
    expect(await codeOf(withFileLock(file, async () => 'never', { lockTimeoutMs: 150 }))).toBe('E_LOCK_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(await readFile(`${file}.lock`, 'utf8')).toBe(lock);
  });

  it('breaks a lock whose process is gone, and a lock older than staleLockMs', async () => {
    const child = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
    const deadPid = child.pid as number;
    await writeJsonFileAtomic(file, 0);
    await writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: deadPid, host: hostname(), nonce: 'dead', created_ms: Date.now() }),
    );
    expect(await withFileLock(file, async () => 'got it', { lockTimeoutMs: 1000 })).toBe('got it');

    await writeFile(
      `${file}.lock`,
      JSON.stringify({ pid: process.ppid, host: hostname(), nonce: 'old', created_ms: 0 }),
    );
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(`${file}.lock`, hourAgo, hourAgo);
    expect(await withFileLock(file, async () => 'old lock broken', { lockTimeoutMs: 1000, staleLockMs: 60_000 })).toBe(
      'old lock broken',
    );
    expect(await readdir(join(dir, 'data'))).toEqual(['registry.json']);
  });

  it('releases the lock when the locked work throws', async () => {
    expect(
      await codeOf(
        withFileLock(file, async () => Promise.reject(Object.assign(new Error('boom'), { code: 'E_BOOM' }))),
      ),
    ).toBe('E_BOOM');
    expect(await withFileLock(file, async () => 'next', { lockTimeoutMs: 100 })).toBe('next');
  });
});
