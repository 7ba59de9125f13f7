// The one behaviour suite every WorkspaceFs backend joins: node-workspace-fs.test.ts runs it over temp folders in
// Node, fsa-workspace-fs.browser.test.ts over OPFS folders in Chromium. Test-only: not exported from index.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceAccess, WorkspaceFs } from './workspace-fs';
import { protectWrites, writePolicyOf } from './write-policy';

export interface WorkspaceFsHarness {
  /** A WorkspaceFs over this harness's one (initially empty) folder. */
  open(access: WorkspaceAccess, limits?: { maxBytes?: number; maxEntries?: number }): Promise<WorkspaceFs>;
  cleanup(): Promise<void>;
}

/** The stable code a promise rejects with, or 'resolved'. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? code : `thrown: ${String(error)}`;
  }
}

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

/** Each bad path of issue 2 and the exact code both backends must give it. */
export const BAD_PATHS: ReadonlyArray<readonly [string, string]> = [
  ['../x', 'E_PATH_ESCAPE'],
  ['a/../../x', 'E_PATH_ESCAPE'],
  ['/etc/passwd', 'E_PATH_ABSOLUTE'],
  ['C:\\x', 'E_PATH_DRIVE'],
  ['C:x', 'E_PATH_DRIVE'],
  ['a\u0000b', 'E_PATH_NUL'],
  ['..\\x', 'E_PATH_BACKSLASH'],
  ['a//b', 'E_PATH_INVALID'],
  ['a/con.txt', 'E_PATH_INVALID'],
  ['notes.txt:stream', 'E_PATH_INVALID'],
  [`${'n'.repeat(256)}.txt`, 'E_PATH_TOO_LONG'],
];

/**
 * Paths into .git that every writer must refuse (issue 13): dot-padded, mixed './' and '..' detours, case variants
 * (case-insensitive file systems), the Windows 8.3 alias, a nested repository and `.git` itself as a gitfile.
 */
export const GIT_DETOURS: readonly string[] = [
  '.git/config',
  'notes.md/./././../.git/config',
  `notes.md/${'./'.repeat(60)}../.git/config`,
  '.git/./config',
  './.git/config',
  'a/../.git/hooks/pre-commit',
  'src/../.git/../.git/info/exclude',
  '.git/objects/../hooks/pre-push',
  '.GIT/config',
  '.Git/HEAD',
  'GIT~1/config',
  'git~1/hooks/post-checkout',
  'vendor/lib/.git/config',
  '.git',
  '.git/hooks/',
];

/** Detours into `.i` (headless i's session logs and checkpoints) that the write policy must refuse in every mode. */
export const I_STATE_DETOURS: readonly string[] = [
  '.i/sessions/work/checkpoints/records.ndjson',
  '.i/sessions/work/checkpoints/blobs/0000',
  '.i/sessions/work/session.ndjson',
  'notes.md/./././../.i/sessions/work/checkpoints/records.ndjson',
  './.i/sessions/x',
  'a/../.i/sessions/x',
  '.I/sessions/x',
  'I~1/sessions/x',
  'i~2/sessions/x',
  'nested/.i/sessions/work/checkpoints/records.ndjson',
  '.i',
  '.i/',
  '.i/new-folder',
];

export function defineWorkspaceFsSuite(backend: string, makeHarness: () => Promise<WorkspaceFsHarness>): void {
  describe(`WorkspaceFs behaviour: ${backend}`, () => {
    let harness: WorkspaceFsHarness;
    let fs: WorkspaceFs;
    beforeEach(async () => {
      harness = await makeHarness();
      fs = await harness.open('read-write');
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    it('writes text and bytes and reads them back exactly, creating parent folders', async () => {
      await fs.writeText('docs/guide/intro.md', 'héllo 世界 🎉\n');
      await fs.writeBytes('bin/data.bin', bytes(0, 255, 1, 128));
      await fs.writeText('empty.txt', '');
      expect(await fs.readText('docs/guide/intro.md')).toBe('héllo 世界 🎉\n');
      expect(Array.from(await fs.readBytes('bin/data.bin'))).toEqual([0, 255, 1, 128]);
      expect(await fs.readText('empty.txt')).toBe('');
      expect(await fs.readText('./docs/../docs/guide/intro.md')).toBe('héllo 世界 🎉\n');
    });

    it('lists one folder sorted by name with sizes and kinds, and the root as "" or "."', async () => {
      await fs.writeText('b.txt', 'bb');
      await fs.writeText('a.txt', 'a');
      await fs.mkdir('c');
      await fs.writeText('c/inner.txt', 'x');
      const expected = [
        { path: 'a.txt', name: 'a.txt', directory: false, size: 1 },
        { path: 'b.txt', name: 'b.txt', directory: false, size: 2 },
        { path: 'c', name: 'c', directory: true, size: 0 },
      ];
      expect(await fs.list('')).toEqual(expected);
      expect(await fs.list('.')).toEqual(expected);
      expect(await fs.list('c/')).toEqual([{ path: 'c/inner.txt', name: 'inner.txt', directory: false, size: 1 }]);
    });

    it('stats files, folders and the root, and gives null for nothing', async () => {
      await fs.writeText('dir/f.txt', 'four');
      const file = await fs.stat('dir/f.txt');
      expect(file).toMatchObject({ path: 'dir/f.txt', directory: false, size: 4 });
      expect(typeof file?.modifiedMs).toBe('number');
      expect(await fs.stat('dir')).toMatchObject({ path: 'dir', directory: true, size: 0 });
      expect(await fs.stat('')).toMatchObject({ path: '', directory: true });
      expect(await fs.stat('missing.txt')).toBeNull();
      expect(await fs.stat('dir/f.txt/below')).toBeNull();
    });

    it('removes files, refuses a non-empty folder unless recursive, and reports a missing entry', async () => {
      await fs.writeText('keep.txt', 'k');
      await fs.writeText('gone.txt', 'g');
      await fs.writeText('tree/a/b.txt', 'b');
      await fs.remove('gone.txt');
      expect(await fs.stat('gone.txt')).toBeNull();
      expect(await codeOf(fs.remove('tree'))).toBe('E_FS_NOT_EMPTY');
      expect(await fs.readText('tree/a/b.txt')).toBe('b');
      await fs.remove('tree', { recursive: true });
      expect(await fs.stat('tree')).toBeNull();
      await fs.mkdir('empty-dir');
      await fs.remove('empty-dir');
      expect(await fs.stat('empty-dir')).toBeNull();
      expect(await codeOf(fs.remove('gone.txt'))).toBe('E_FS_NOT_FOUND');
      expect(await codeOf(fs.remove(''))).toBe('E_PATH_INVALID');
      expect((await fs.list('')).map((e) => e.name)).toEqual(['keep.txt']);
    });

    it('makes nested folders, is idempotent, and refuses to make a folder over a file', async () => {
      await fs.mkdir('x/y/z');
      await fs.mkdir('x/y/z');
      expect(await fs.stat('x/y/z')).toMatchObject({ directory: true });
      await fs.writeText('x/file', '1');
      expect(await codeOf(fs.mkdir('x/file'))).toBe('E_FS_NOT_DIRECTORY');
      expect(await codeOf(fs.mkdir('x/file/sub'))).toBe('E_FS_NOT_DIRECTORY');
    });

    it('refuses to treat folders as files and files as folders', async () => {
      await fs.writeText('f.txt', 'f');
      await fs.mkdir('d');
      expect(await codeOf(fs.readBytes('d'))).toBe('E_FS_NOT_FILE');
      expect(await codeOf(fs.writeText('d', 'x'))).toBe('E_FS_NOT_FILE');
      expect(await codeOf(fs.list('f.txt'))).toBe('E_FS_NOT_DIRECTORY');
      expect(await codeOf(fs.readText('f.txt/x'))).toBe('E_FS_NOT_DIRECTORY');
      expect(await codeOf(fs.writeText('f.txt/x', 'x'))).toBe('E_FS_NOT_DIRECTORY');
      expect(await codeOf(fs.readText('missing.txt'))).toBe('E_FS_NOT_FOUND');
      expect(await codeOf(fs.list('missing'))).toBe('E_FS_NOT_FOUND');
      expect(await codeOf(fs.readText(''))).toBe('E_PATH_INVALID');
    });

    it('decodes text as strict UTF-8 and refuses invalid bytes, while bytes still read', async () => {
      const invalid: Array<[string, Uint8Array]> = [
        ['stray.bin', bytes(0x61, 0xff, 0x62)],
        ['overlong.bin', bytes(0xc0, 0xaf)],
        ['surrogate.bin', bytes(0xed, 0xa0, 0x80)],
        ['truncated.bin', bytes(0xe4, 0xb8)],
      ];
      for (const [name, data] of invalid) {
        await fs.writeBytes(name, data);
        expect(await codeOf(fs.readText(name)), name).toBe('E_FS_NOT_UTF8');
        expect(Array.from(await fs.readBytes(name))).toEqual(Array.from(data));
      }
      await fs.writeBytes('bom.txt', bytes(0xef, 0xbb, 0xbf, 0x68, 0x69));
      expect(await fs.readText('bom.txt')).toBe('\ufeffhi');
      expect(await codeOf(fs.writeText('lone.txt', 'a\ud800b'))).toBe('E_FS_NOT_UTF8');
      expect(await fs.stat('lone.txt')).toBeNull();
    });

    it('enforces maxBytes per call and per workspace, for reads and writes', async () => {
      await fs.writeBytes('ten.bin', new Uint8Array(10));
      expect((await fs.readBytes('ten.bin', { maxBytes: 10 })).length).toBe(10);
      expect(await codeOf(fs.readBytes('ten.bin', { maxBytes: 9 }))).toBe('E_FS_TOO_LARGE');
      expect(await codeOf(fs.readText('ten.bin', { maxBytes: 9 }))).toBe('E_FS_TOO_LARGE');
      const small = await harness.open('read-write', { maxBytes: 8 });
      expect(await codeOf(small.readBytes('ten.bin'))).toBe('E_FS_TOO_LARGE');
      expect(await codeOf(small.writeBytes('nine.bin', new Uint8Array(9)))).toBe('E_FS_TOO_LARGE');
      expect(await small.stat('nine.bin')).toBeNull();
      await small.writeBytes('eight.bin', new Uint8Array(8));
      expect((await small.readBytes('eight.bin')).length).toBe(8);
    });

    it('refuses to list a folder with more than maxEntries entries', async () => {
      for (const name of ['1', '2', '3', '4']) await fs.writeText(`many/${name}`, name);
      expect(await codeOf(fs.list('many', { maxEntries: 3 }))).toBe('E_FS_TOO_MANY_ENTRIES');
      expect((await fs.list('many', { maxEntries: 4 })).length).toBe(4);
      const narrow = await harness.open('read', { maxEntries: 2 });
      expect(await codeOf(narrow.list('many'))).toBe('E_FS_TOO_MANY_ENTRIES');
      // truncate: part of the folder instead of the error, still sorted, each entry real.
      const part = await fs.list('many', { maxEntries: 3, truncate: true });
      expect(part).toHaveLength(3);
      expect(part.map((e) => e.name)).toEqual([...part.map((e) => e.name)].sort());
      const all = (await fs.list('many')).map((e) => e.name);
      for (const e of part) expect(all).toContain(e.name);
      expect(await fs.list('many', { maxEntries: 10, truncate: true })).toHaveLength(all.length);
    });

    it('overwrites atomically: concurrent readers see the old or the new content, never a mix, and no temp file stays', async () => {
      const oldData = new Uint8Array(1 << 20).fill(0x61);
      const newData = new Uint8Array(3 << 19).fill(0x62);
      await fs.writeBytes('big.bin', oldData);
      let writing = true;
      const write = fs.writeBytes('big.bin', newData).finally(() => {
        writing = false;
      });
      const seen = new Set<string>();
      do {
        const got = await fs.readBytes('big.bin');
        const first = got[0];
        const uniform = got.every((b) => b === first);
        seen.add(`${got.length}:${String(first)}:${String(uniform)}`);
      } while (writing);
      await write;
      for (const shape of seen) expect([`${oldData.length}:97:true`, `${newData.length}:98:true`]).toContain(shape);
      const after = await fs.readBytes('big.bin');
      expect(after.length).toBe(newData.length);
      expect(after.every((b) => b === 0x62)).toBe(true);
      expect((await fs.list('')).map((e) => e.name)).toEqual(['big.bin']);
    });

    it('runs beforeCommit once while the file still holds its old contents (or is absent), through protectWrites too', async () => {
      await fs.writeText('doc.txt', 'old');
      const held: Array<string | null> = [];
      const look = (path: string) => async () => {
        held.push((await fs.stat(path)) ? await fs.readText(path) : null);
      };
      await fs.writeText('doc.txt', 'new', { beforeCommit: look('doc.txt') });
      await fs.writeBytes('fresh/made.bin', bytes(1, 2), { beforeCommit: look('fresh/made.bin') });
      await protectWrites(fs, { allowGitWrites: false }).writeText('doc.txt', 'newer', {
        beforeCommit: look('doc.txt'),
      });
      expect(held).toEqual(['old', null, 'new']);
      expect(await fs.readText('doc.txt')).toBe('newer');
      expect(Array.from(await fs.readBytes('fresh/made.bin'))).toEqual([1, 2]);
    });

    it('leaves the file as it was, and nothing beside it (no temp file, no folder), when beforeCommit refuses', async () => {
      await fs.writeText('doc.txt', 'kept');
      const refuse = {
        beforeCommit: () =>
          Promise.reject(Object.assign(new Error('no room for undo'), { code: 'E_CHECKPOINT_FAILED' })),
      };
      expect(await codeOf(fs.writeText('doc.txt', 'lost', refuse))).toBe('E_CHECKPOINT_FAILED');
      expect(await codeOf(fs.writeBytes('new.bin', bytes(7), refuse))).toBe('E_CHECKPOINT_FAILED');
      // Nor a folder made on the way to a new file.
      expect(await codeOf(fs.writeBytes('deep/er/new.bin', bytes(7), refuse))).toBe('E_CHECKPOINT_FAILED');
      expect(await fs.readText('doc.txt')).toBe('kept');
      expect((await fs.list('')).map((e) => e.name)).toEqual(['doc.txt']);
    });

    it('refuses every change in a read-only workspace and leaves the folder as it was', async () => {
      await fs.writeText('doc.txt', 'original');
      await fs.mkdir('dir');
      const ro = await harness.open('read');
      expect(ro.access).toBe('read');
      expect(await codeOf(ro.writeText('doc.txt', 'changed'))).toBe('E_FS_READ_ONLY');
      expect(await codeOf(ro.writeBytes('new.bin', bytes(1)))).toBe('E_FS_READ_ONLY');
      expect(await codeOf(ro.remove('doc.txt'))).toBe('E_FS_READ_ONLY');
      expect(await codeOf(ro.remove('dir', { recursive: true }))).toBe('E_FS_READ_ONLY');
      expect(await codeOf(ro.mkdir('other'))).toBe('E_FS_READ_ONLY');
      expect(await ro.readText('doc.txt')).toBe('original');
      expect((await ro.list('')).map((e) => e.name)).toEqual(['dir', 'doc.txt']);
    });

    describe('refuses each bad path with its stable code', () => {
      for (const [bad, code] of BAD_PATHS) {
        it(`${JSON.stringify(bad)} → ${code}`, async () => {
          await fs.writeText('a/inside.txt', 'inside');
          expect(await codeOf(fs.readText(bad))).toBe(code);
          expect(await codeOf(fs.readBytes(bad))).toBe(code);
          expect(await codeOf(fs.writeText(bad, 'x'))).toBe(code);
          expect(await codeOf(fs.list(bad))).toBe(code);
          expect(await codeOf(fs.stat(bad))).toBe(code);
          expect(await codeOf(fs.remove(bad, { recursive: true }))).toBe(code);
          expect(await codeOf(fs.mkdir(bad))).toBe(code);
          expect((await fs.list('')).map((e) => e.name)).toEqual(['a']);
          expect((await fs.list('a')).map((e) => e.name)).toEqual(['inside.txt']);
        });
      }
    });

    it('resolves ".." that stays inside the root lexically', async () => {
      await fs.writeText('a/../b.txt', 'b');
      expect(await fs.readText('b.txt')).toBe('b');
      expect(await fs.stat('a')).toBeNull();
    });

    it('opens names exactly and refuses to create an NFC twin of an existing name', async () => {
      const nfc = 'caf\u00e9.txt';
      const nfd = 'cafe\u0301.txt';
      await fs.writeText(nfc, 'composed');
      expect(await codeOf(fs.readText(nfd))).toBe('E_FS_NOT_FOUND');
      expect(await codeOf(fs.writeText(nfd, 'decomposed'))).toBe('E_FS_NAME_CONFLICT');
      expect(await codeOf(fs.mkdir(`cafe\u0301.txt/sub`))).toBe('E_FS_NAME_CONFLICT');
      await fs.writeText(nfc, 'again');
      expect(await fs.readText(nfc)).toBe('again');
      expect((await fs.list('')).map((e) => e.name)).toEqual([nfc]);
    });

    it('refuses writes, folders and removals inside .git through protectWrites, and allows them when the workspace does', async () => {
      await fs.writeText('.git/config', '[core]\n');
      const guarded = protectWrites(fs, { allowGitWrites: false });
      for (const raw of GIT_DETOURS) {
        expect([raw, await codeOf(guarded.writeText(raw, '[core]\n\tfsmonitor = touch /tmp/pwned\n'))]).toEqual([
          raw,
          'E_PATH_PROTECTED',
        ]);
        expect([raw, await codeOf(guarded.writeBytes(raw, bytes(1)))]).toEqual([raw, 'E_PATH_PROTECTED']);
        expect([raw, await codeOf(guarded.mkdir(raw))]).toEqual([raw, 'E_PATH_PROTECTED']);
        expect([raw, await codeOf(guarded.remove(raw, { recursive: true }))]).toEqual([raw, 'E_PATH_PROTECTED']);
      }
      expect(await fs.readText('.git/config')).toBe('[core]\n');
      expect(await guarded.readText('notes.md/../.git/config')).toBe('[core]\n');
      expect(await codeOf(guarded.writeText('a\u202egnp.exe', 'x'))).toBe('E_PATH_INVISIBLE_CHAR');
      await guarded.writeText('src/ok.txt', 'fine');
      expect(await fs.readText('src/ok.txt')).toBe('fine');
      expect(writePolicyOf(guarded)).toEqual({ allowGitWrites: false });
      expect(writePolicyOf(fs)).toEqual({ allowGitWrites: false });

      const allowed = protectWrites(guarded, { allowGitWrites: true });
      expect(writePolicyOf(allowed)).toEqual({ allowGitWrites: true });
      await allowed.writeText('notes.md/./././../.git/config', '[core]\n\tbare = false\n');
      expect(await fs.readText('.git/config')).toBe('[core]\n\tbare = false\n');
      await allowed.remove('.git', { recursive: true });
      expect(await fs.stat('.git')).toBeNull();
    });

    it('refuses writes, folders and removals inside .i through protectWrites, even where .git writes are allowed', async () => {
      const records = '{"seq":1}\n';
      await fs.writeText('.i/sessions/work/checkpoints/records.ndjson', records);
      for (const policy of [{ allowGitWrites: false }, { allowGitWrites: true }]) {
        const guarded = protectWrites(fs, policy);
        for (const raw of I_STATE_DETOURS) {
          expect([raw, await codeOf(guarded.writeText(raw, ''))]).toEqual([raw, 'E_PATH_PROTECTED']);
          expect([raw, await codeOf(guarded.writeBytes(raw, bytes(1)))]).toEqual([raw, 'E_PATH_PROTECTED']);
          expect([raw, await codeOf(guarded.mkdir(raw))]).toEqual([raw, 'E_PATH_PROTECTED']);
          expect([raw, await codeOf(guarded.remove(raw, { recursive: true }))]).toEqual([raw, 'E_PATH_PROTECTED']);
        }
        // Reading stays allowed; names that only resemble .i are plain files.
        expect(await guarded.readText('.i/sessions/work/checkpoints/records.ndjson')).toBe(records);
        for (const plain of ['.in', 'i/notes.md', 'docs/.idea.md', '.ignore']) await guarded.writeText(plain, 'ok');
      }
      expect(await fs.readText('.i/sessions/work/checkpoints/records.ndjson')).toBe(records);
    });
  });
}
