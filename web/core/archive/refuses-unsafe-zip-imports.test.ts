// Every refusal of "Import .zip" by its code, checked on archives built to trigger exactly it.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../node';
import { breakCentralDirectory, firstDataOffset, patchFirstEntry, zipOf } from './archive-test-kit';
import { importZip } from './import-zip';
import type { ZipImportLimits } from './limits';
import { ZIP_IMPORT_FIXES } from './refusals';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function target() {
  const root = await mkdtemp(join(tmpdir(), 'i-zip-import-'));
  roots.push(root);
  return { root, fs: await createNodeWorkspaceFs({ root, access: 'read-write' }) };
}

/** Imports `bytes` and returns the refusal's code and message, and what the target folder holds after it. */
async function refusal(bytes: Uint8Array, limits?: Partial<ZipImportLimits>, signal?: AbortSignal) {
  const { root, fs } = await target();
  try {
    await importZip(new Blob([bytes as Uint8Array<ArrayBuffer>]), fs, {
      ...(limits ? { limits } : {}),
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    const e = error as { code: string; message: string };
    return { code: e.code, message: e.message, left: await readdir(root) };
  }
  throw new Error('the import was not refused');
}

const zeros = (n: number) => new Uint8Array(n);

describe('import .zip refuses', () => {
  it.each([
    ['../evil.txt', 'climbs out'],
    ['a/../../evil.txt', 'climbs out'],
    ['/etc/passwd', 'absolute'],
    ['a\\..\\evil.txt', 'backslash'],
    ['C:/evil.txt', 'drive'],
    ['c:evil.txt', 'drive'],
    ['a\u0000.txt', 'control character'],
    ['a\u001b[31m.txt', 'control character'],
    ['a/./b.txt', '“.” segment'],
    ['a//b.txt', 'empty'],
    ['con.txt', 'reserved Windows device'],
  ])('an entry named %j with E_PACKAGE_ENTRY_NAME (%s) and writes nothing', async (name, reason) => {
    const r = await refusal(
      await zipOf([
        { name: 'fine.txt', data: 'ok' },
        { name, data: 'x' },
      ]),
    );
    expect(r.code).toBe('E_PACKAGE_ENTRY_NAME');
    expect(r.message).toContain(reason);
    expect(r.message).toContain('Nothing was imported.');
    expect(r.left).toEqual([]);
  });

  it('two names that are equal after Unicode normalisation with E_PACKAGE_DUPLICATE_ENTRY', async () => {
    const r = await refusal(
      await zipOf([
        { name: 'caf\u00e9.txt', data: '1' },
        { name: 'cafe\u0301.txt', data: '2' },
      ]),
    );
    expect(r.code).toBe('E_PACKAGE_DUPLICATE_ENTRY');
  });

  it('a path that is both a file and a folder with E_PACKAGE_DUPLICATE_ENTRY', async () => {
    const r = await refusal(
      await zipOf([
        { name: 'a', data: 'file' },
        { name: 'a/b.txt', data: 'inside' },
      ]),
    );
    expect(r.code).toBe('E_PACKAGE_DUPLICATE_ENTRY');
    expect(r.left).toEqual([]);
  });

  it('a file that is not a ZIP with E_PACKAGE_NOT_ZIP', async () => {
    expect((await refusal(new TextEncoder().encode('just some text, no archive'))).code).toBe('E_PACKAGE_NOT_ZIP');
  });

  it('a broken central directory with E_PACKAGE_MALFORMED', async () => {
    const bytes = await zipOf([{ name: 'a.txt', data: 'hello' }]);
    expect((await refusal(breakCentralDirectory(bytes))).code).toBe('E_PACKAGE_MALFORMED');
  });

  it('an archive over the size limit with E_PACKAGE_TOO_LARGE before reading it', async () => {
    const bytes = await zipOf([{ name: 'a.txt', data: 'x'.repeat(5000), options: { level: 0 } }]);
    expect((await refusal(bytes, { archiveBytes: 1000 })).code).toBe('E_PACKAGE_TOO_LARGE');
  });

  it('a password-protected entry with E_PACKAGE_ENCRYPTED', async () => {
    const bytes = await zipOf([{ name: 'secret.txt', data: 'hidden', options: { password: 'pw' } }]);
    expect((await refusal(bytes)).code).toBe('E_PACKAGE_ENCRYPTED');
  });

  it('a compression method other than stored or deflate with E_PACKAGE_METHOD', async () => {
    const bytes = patchFirstEntry(await zipOf([{ name: 'a.txt', data: 'hello' }]), 'method', 12);
    expect((await refusal(bytes)).code).toBe('E_PACKAGE_METHOD');
  });

  it('a symbolic link with E_PACKAGE_SYMLINK', async () => {
    const bytes = await zipOf([{ name: 'link', data: '/etc/passwd', options: { unixMode: 0o120777 } }]);
    expect((await refusal(bytes)).code).toBe('E_PACKAGE_SYMLINK');
  });

  it('one file over the per-file limit with E_PACKAGE_ENTRY_TOO_LARGE', async () => {
    const bytes = await zipOf([{ name: 'big.bin', data: zeros(4096) }]);
    expect((await refusal(bytes, { entryBytes: 4095 })).code).toBe('E_PACKAGE_ENTRY_TOO_LARGE');
  });

  it('data that does not match its CRC-32 with E_PACKAGE_CRC, leaving no file', async () => {
    const bytes = await zipOf([{ name: 'a.txt', data: 'hello world', options: { level: 0 } }]);
    const at = firstDataOffset(bytes);
    bytes[at] = (bytes[at] as number) ^ 0xff;
    const r = await refusal(bytes);
    expect(r.code).toBe('E_PACKAGE_CRC');
    expect(r.left).toEqual([]);
  });

  it('a local header that disagrees with the directory with E_PACKAGE_HEADER_MISMATCH', async () => {
    // Without a data descriptor the local header carries the CRC, so a different one there is a second reading.
    const bytes = patchFirstEntry(
      await zipOf([{ name: 'a.txt', data: 'hello' }], { dataDescriptor: false }),
      'crc',
      0x12345678,
      'local',
    );
    expect((await refusal(bytes)).code).toBe('E_PACKAGE_HEADER_MISMATCH');
  });

  it('more entries than the limit with E_ARCHIVE_TOO_MANY_ENTRIES', async () => {
    const bytes = await zipOf(['a', 'b', 'c', 'd'].map((name) => ({ name, data: name })));
    const r = await refusal(bytes, { entries: 3 });
    expect(r.code).toBe('E_ARCHIVE_TOO_MANY_ENTRIES');
    expect(r.left).toEqual([]);
  });

  it('more inflated bytes in all than the limit with E_ARCHIVE_TOO_LARGE', async () => {
    const bytes = await zipOf([
      { name: 'a', data: zeros(3000) },
      { name: 'b', data: zeros(3000) },
    ]);
    expect((await refusal(bytes, { totalBytes: 5000 })).code).toBe('E_ARCHIVE_TOO_LARGE');
  });

  it('an entry that inflates past the ratio with E_ARCHIVE_BOMB', async () => {
    const bytes = await zipOf([{ name: 'zeros.bin', data: zeros(4 * 1024 * 1024) }]);
    const r = await refusal(bytes);
    expect(r.code).toBe('E_ARCHIVE_BOMB');
    expect(r.left).toEqual([]);
  });

  it('an entry that inflates past the size it declares with E_PACKAGE_HEADER_MISMATCH, leaving no file', async () => {
    // Declares 10 bytes, inflates to 64 KiB: the declared-size checks pass, inflating stops at the declared size.
    const bytes = patchFirstEntry(
      await zipOf([{ name: 'liar.bin', data: zeros(64 * 1024) }], { dataDescriptor: false }),
      'uncompressedSize',
      10,
    );
    const r = await refusal(bytes);
    expect(r.code).toBe('E_PACKAGE_HEADER_MISMATCH');
    expect(r.message).toContain('does not inflate to the size it declares');
    expect(r.left).toEqual([]);
  });

  it('a cancelled import with E_ARCHIVE_CANCELLED', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await refusal(await zipOf([{ name: 'a.txt', data: 'x' }]), undefined, controller.signal)).code).toBe(
      'E_ARCHIVE_CANCELLED',
    );
  });

  it('with a sentence for every code it uses', () => {
    for (const [code, fix] of Object.entries(ZIP_IMPORT_FIXES)) {
      expect(code).toMatch(/^E_[A-Z_]+$/);
      expect(fix.length).toBeGreaterThan(20);
    }
  });
});
