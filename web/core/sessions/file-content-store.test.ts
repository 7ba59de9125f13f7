// The file content store of a session folder (headless `i`): the shared contract, plus what a folder adds — it
// persists for a new store object (a new process), refuses damaged entries and symbolic links, and writes whole
// entries only.
import { mkdtempSync, readdirSync, symlinkSync, writeFileSync, readFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentStoreContract } from '../context/content-store-suite';
import type { ContentScope } from '../context';
import { createFileContentStore } from './node-content-store';

const fresh = () => join(mkdtempSync(join(tmpdir(), 'i-content-')), 'content');
contentStoreContract('file store', (config) => createFileContentStore({ ...config, dir: fresh() }));

const limits = {
  storeId: 'session-results',
  maxEntries: 4,
  maxBytes: 1000,
  maxContentBytes: 500,
  maxPageBytes: 64,
  maxTtlMs: 100_000,
};
const scope: ContentScope = { sessionId: 's1', taskId: 'session', expiresAtMs: 50_000 };

describe('file content store in a session folder', () => {
  it('reads an entry back through a new store object over the same folder (a new process)', async () => {
    const dir = fresh();
    const ref = await createFileContentStore({ ...limits, dir }).put('turn1:call1', 'é'.repeat(40), scope, 0);
    const reopened = createFileContentStore({ ...limits, dir });
    const page = await reopened.read(ref, scope, 10, 0, 64);
    expect(page).toEqual({ text: 'é'.repeat(32), offset: 0, nextOffset: 64, totalBytes: 80 });
    // Limits count what earlier processes stored.
    const other = createFileContentStore({ ...limits, dir, maxEntries: 1 });
    await expect(other.put('turn2:call1', 'x', scope, 10)).rejects.toMatchObject({ code: 'E_CONTENT_STORE_FULL' });
  });

  it('writes whole entries only: no temporary file is left and the text is stored as raw UTF-8 after one header line', async () => {
    const dir = fresh();
    await createFileContentStore({ ...limits, dir }).put('a', '工具\n数据', scope, 0);
    const names = readdirSync(dir);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^[0-9a-f]{64}\.entry$/);
    const raw = readFileSync(join(dir, names[0]!));
    expect(raw.subarray(raw.indexOf(0x0a) + 1).toString('utf8')).toBe('工具\n数据');
  });

  it('refuses a damaged entry with E_CONTENT_CORRUPT and leaves it as it is', async () => {
    const dir = fresh();
    const store = createFileContentStore({ ...limits, dir });
    const ref = await store.put('a', 'hello world', scope, 0);
    const file = join(dir, readdirSync(dir)[0]!);
    const cut = readFileSync(file).subarray(0, -3);
    writeFileSync(file, cut);
    await expect(store.read(ref, scope, 1, 0, 64)).rejects.toMatchObject({ code: 'E_CONTENT_CORRUPT' });
    writeFileSync(file, 'not a header\nhello world');
    await expect(store.read(ref, scope, 1, 0, 64)).rejects.toMatchObject({ code: 'E_CONTENT_CORRUPT' });
    await expect(store.put('a', 'hello world', scope, 1)).rejects.toMatchObject({ code: 'E_CONTENT_CORRUPT' });
    expect(readFileSync(file, 'utf8')).toBe('not a header\nhello world');
  });

  it('never follows a symbolic link: not for an entry, not for the content folder', async () => {
    const dir = fresh();
    const store = createFileContentStore({ ...limits, dir });
    const ref = await store.put('a', 'secret-free text', scope, 0);
    const file = join(dir, readdirSync(dir)[0]!);
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'i-elsewhere-')), 'x.entry');
    writeFileSync(elsewhere, readFileSync(file));
    const { rmSync } = await import('node:fs');
    rmSync(file);
    symlinkSync(elsewhere, file);
    await expect(store.read(ref, scope, 1, 0, 64)).rejects.toMatchObject({ code: 'E_CONTENT_CORRUPT' });

    const target = mkdtempSync(join(tmpdir(), 'i-target-'));
    const linkedDir = join(mkdtempSync(join(tmpdir(), 'i-session-')), 'content');
    symlinkSync(target, linkedDir);
    const linked = createFileContentStore({ ...limits, dir: linkedDir });
    await expect(linked.put('a', 'text', scope, 0)).rejects.toMatchObject({ code: 'E_CONTENT_CORRUPT' });
    expect(readdirSync(target)).toEqual([]);
  });

  it('purges expired entries from the folder', async () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    const store = createFileContentStore({ ...limits, dir });
    await store.put('a', 'one', { ...scope, expiresAtMs: 100 }, 0);
    await store.put('b', 'two', scope, 0);
    expect(await store.purgeExpired(100)).toBe(1);
    expect(readdirSync(dir)).toHaveLength(1);
  });
});
