// "Download as .zip" then "Import .zip" gives back the same files; the download leaves out .git unless asked,
// reports progress in files and bytes, and discards its output when cancelled.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../node';
import { collectingSink } from './archive-test-kit';
import { writeWorkspaceZip } from './download-zip';
import { importZip, type ZipProgress } from './import-zip';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function folder(files: Record<string, string | Uint8Array>, emptyDirs: string[] = []) {
  const root = await mkdtemp(join(tmpdir(), 'i-zip-'));
  roots.push(root);
  for (const [path, data] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), data);
  }
  for (const d of emptyDirs) await mkdir(join(root, d), { recursive: true });
  return { root, fs: await createNodeWorkspaceFs({ root, access: 'read-write' }) };
}

/** Every file and folder under `root` with its content (folders as null), sorted. */
async function snapshot(root: string): Promise<[string, string | null][]> {
  const out: [string, string | null][] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const full = join(entry.parentPath, entry.name);
    out.push([relative(root, full), entry.isDirectory() ? null : (await readFile(full)).toString('base64')]);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

const binary = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251);
const tree = {
  'README.md': '# Project\n',
  'src/main.ts': 'export const x = 1;\n'.repeat(200),
  'src/deep/nested/caf\u00e9 \u4e2d\u6587.txt': 'unicode names survive',
  '.env.example': 'KEY=\n',
  'assets/logo.png': binary,
  'empty.txt': '',
  '.git/HEAD': 'ref: refs/heads/main\n',
  'vendor/.git/config': '[core]\n',
};

describe('download as .zip', () => {
  it('round-trips a workspace through import: same names, bytes and empty folders, .git left out', async () => {
    const source = await folder(tree, ['docs/empty']);
    const sink = collectingSink();
    await writeWorkspaceZip(source.fs, sink.stream);
    const copy = await folder({});
    await importZip(sink.blob(), copy.fs);
    const expected = (await snapshot(source.root)).filter(([p]) => !p.split('/').includes('.git'));
    expect(await snapshot(copy.root)).toEqual(expected);
    expect(expected.some(([p]) => p === 'docs/empty')).toBe(true);
  });

  it('includes .git folders when asked', async () => {
    const source = await folder(tree);
    const sink = collectingSink();
    await writeWorkspaceZip(source.fs, sink.stream, { includeGit: true });
    const copy = await folder({});
    await importZip(sink.blob(), copy.fs);
    expect(await snapshot(copy.root)).toEqual(await snapshot(source.root));
  });

  it('packs one folder with names relative to it', async () => {
    const source = await folder(tree);
    const sink = collectingSink();
    await writeWorkspaceZip(source.fs, sink.stream, { folder: 'src' });
    const copy = await folder({});
    await importZip(sink.blob(), copy.fs);
    expect((await snapshot(copy.root)).map(([p]) => p)).toEqual([
      'deep',
      'deep/nested',
      'deep/nested/caf\u00e9 \u4e2d\u6587.txt',
      'main.ts',
    ]);
  });

  it('reports progress in files and bytes, ending at the totals', async () => {
    const source = await folder({ 'a.txt': 'aaaa', 'b/c.txt': 'cc', 'd.bin': new Uint8Array(1000) });
    const seen: ZipProgress[] = [];
    await writeWorkspaceZip(source.fs, collectingSink().stream, { onProgress: (p) => seen.push(p) });
    expect(seen[0]).toEqual({ filesDone: 0, filesTotal: 3, bytesDone: 0, bytesTotal: 1006 });
    expect(seen.at(-1)).toEqual({ filesDone: 3, filesTotal: 3, bytesDone: 1006, bytesTotal: 1006 });
    expect(seen.map((p) => p.filesDone)).toEqual([0, 1, 2, 3]);
  });

  it('aborts the sink when cancelled, so a half-written file is discarded', async () => {
    const source = await folder(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.txt`, `file ${i}`])));
    const controller = new AbortController();
    let abortedWith: unknown;
    let closed = false;
    const sink = new WritableStream<Uint8Array>({
      abort: (reason) => void (abortedWith = reason),
      close: () => void (closed = true),
    });
    const run = writeWorkspaceZip(source.fs, sink, {
      signal: controller.signal,
      onProgress: (p) => p.filesDone === 5 && controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ code: 'E_ABORTED' });
    expect(abortedWith).toBeDefined();
    expect(closed).toBe(false);
  });
});
