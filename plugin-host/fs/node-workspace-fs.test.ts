import { mkdtemp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from './node-workspace-fs';
import { codeOf, defineWorkspaceFsSuite } from './workspace-fs-suite';
import { judgeWrite, protectWrites } from './write-policy';
import type { WorkspaceFs } from './workspace-fs';

// Both ways of making the calls (libuv's pool, and the CLI's synchronous slices) keep one behaviour.
for (const [mode, blockingCalls] of [
  ['', false],
  [', blocking calls', true],
] as const) {
  defineWorkspaceFsSuite(`Node fs over a temp folder${mode}`, async () => {
    const base = await mkdtemp(join(tmpdir(), 'i-wsfs-'));
    const root = join(base, 'root');
    await mkdir(root);
    return {
      open: (access, limits) => createNodeWorkspaceFs({ root, access, blockingCalls, ...limits }),
      cleanup: () => rm(base, { recursive: true, force: true }),
    };
  });

  describe(`Node WorkspaceFs and symbolic links${mode}`, () => {
    let base: string;
    let root: string;
    let outside: string;
    let fs: WorkspaceFs;

    beforeEach(async () => {
      base = await mkdtemp(join(tmpdir(), 'i-wsfs-link-'));
      root = join(base, 'root');
      outside = join(base, 'outside');
      await mkdir(root);
      await mkdir(outside);
      await writeFile(join(outside, 'secret.txt'), 'secret');
      fs = await createNodeWorkspaceFs({ root, access: 'read-write', blockingCalls });
    });
    afterEach(async () => {
      await rm(base, { recursive: true, force: true });
    });

    it('refuses a file symlink that points outside, for reads, writes and stat', async () => {
      await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
      expect(await codeOf(fs.readText('leak.txt'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.writeText('leak.txt', 'overwritten'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.stat('leak.txt'))).toBe('E_PATH_ESCAPE');
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    });

    it('refuses a directory symlink that points outside, also for new files and folders below it', async () => {
      await symlink(outside, join(root, 'out'), 'dir');
      expect(await codeOf(fs.readText('out/secret.txt'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.readText('out/missing.txt'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.writeText('out/new.txt', 'x'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.writeText('out/deep/new.txt', 'x'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.mkdir('out/sub'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.list('out'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.remove('out/secret.txt'))).toBe('E_PATH_ESCAPE');
      expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
    });

    it('refuses a symlink chain that leaves and re-enters nothing but the outside', async () => {
      await mkdir(join(root, 'a'));
      await symlink('../../outside', join(root, 'a', 'up'), 'dir');
      expect(await codeOf(fs.readText('a/up/secret.txt'))).toBe('E_PATH_ESCAPE');
      expect(await codeOf(fs.writeText('a/up/x.txt', 'x'))).toBe('E_PATH_ESCAPE');
    });

    it('follows links that stay inside, and a write through one replaces the target and keeps the link', async () => {
      await writeFile(join(root, 'real.txt'), 'v1');
      await mkdir(join(root, 'realdir'));
      await symlink('real.txt', join(root, 'alias.txt'));
      await symlink('realdir', join(root, 'aliasdir'), 'dir');
      expect(await fs.readText('alias.txt')).toBe('v1');
      await fs.writeText('alias.txt', 'v2');
      expect(await readFile(join(root, 'real.txt'), 'utf8')).toBe('v2');
      expect(await fs.readText('alias.txt')).toBe('v2');
      await fs.writeText('aliasdir/new.txt', 'n');
      expect(await readFile(join(root, 'realdir', 'new.txt'), 'utf8')).toBe('n');
    });

    it('refuses to read, write or create through a dangling link, and stats it as nothing', async () => {
      await symlink(join(outside, 'not-there.txt'), join(root, 'dangling.txt'));
      await symlink(join(outside, 'no-dir'), join(root, 'dangling-dir'), 'dir');
      expect(await codeOf(fs.readText('dangling.txt'))).toBe('E_FS_BROKEN_LINK');
      expect(await fs.stat('dangling.txt')).toBeNull();
      expect(await codeOf(fs.writeText('dangling.txt', 'x'))).toBe('E_FS_BROKEN_LINK');
      expect(await codeOf(fs.writeText('dangling-dir/x.txt', 'x'))).toBe('E_FS_BROKEN_LINK');
      expect(await codeOf(fs.mkdir('dangling-dir/sub'))).toBe('E_FS_BROKEN_LINK');
      expect((await readdir(outside)).sort()).toEqual(['secret.txt']);
    });

    it('lists links that resolve inside as their targets, marked link: true, and leaves out links that escape or dangle', async () => {
      await writeFile(join(root, 'real.txt'), 'abc');
      await symlink('real.txt', join(root, 'alias.txt'));
      await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
      await symlink(outside, join(root, 'out'), 'dir');
      await symlink('nowhere', join(root, 'dangling'));
      expect(await fs.list('')).toEqual([
        { path: 'alias.txt', name: 'alias.txt', directory: false, size: 3, link: true },
        { path: 'real.txt', name: 'real.txt', directory: false, size: 3 },
      ]);
      // Without sizes a plain file costs no lstat (size 0); links are still resolved and judged.
      expect(await fs.list('', { sizes: false })).toEqual([
        { path: 'alias.txt', name: 'alias.txt', directory: false, size: 3, link: true },
        { path: 'real.txt', name: 'real.txt', directory: false, size: 0 },
      ]);
    });

    it('marks a directory link that stays inside as link: true, and only the link', async () => {
      await mkdir(join(root, 'realdir'));
      await writeFile(join(root, 'realdir', 'a.txt'), 'a');
      await symlink('realdir', join(root, 'aliasdir'), 'dir');
      expect(await fs.list('')).toEqual([
        { path: 'aliasdir', name: 'aliasdir', directory: true, size: 0, link: true },
        { path: 'realdir', name: 'realdir', directory: true, size: 0 },
      ]);
      expect(await fs.list('aliasdir')).toEqual([{ path: 'aliasdir/a.txt', name: 'a.txt', directory: false, size: 1 }]);
    });

    it('removes a link itself, never what it points to', async () => {
      await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
      await symlink(outside, join(root, 'out'), 'dir');
      await fs.remove('leak.txt');
      await fs.remove('out', { recursive: true });
      expect(await readdir(root)).toEqual([]);
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
    });

    it('accepts a root that is itself a symlink and keeps its real folder as the boundary', async () => {
      await symlink(root, join(base, 'root-link'), 'dir');
      const viaLink = await createNodeWorkspaceFs({ root: join(base, 'root-link'), access: 'read-write' });
      await viaLink.writeText('x.txt', 'x');
      expect(await readFile(join(root, 'x.txt'), 'utf8')).toBe('x');
      expect(viaLink.rootName).toBe('root');
    });
  });
}

describe('Node WorkspaceFs specifics', () => {
  let base: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-wsfs-node-'));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('marks NFC twins made outside the workspace API in listings', async () => {
    await writeFile(join(base, 'caf\u00e9'), '1');
    await writeFile(join(base, 'cafe\u0301'), '22');
    await writeFile(join(base, 'plain'), '3');
    const fs = await createNodeWorkspaceFs({ root: base, access: 'read' });
    const listed = await fs.list('');
    expect(
      listed
        .filter((e) => e.nfcTwin)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['caf\u00e9', 'cafe\u0301'].sort());
    expect(listed.find((e) => e.name === 'plain')?.nfcTwin).toBeUndefined();
    expect(await fs.readText('cafe\u0301')).toBe('22');
  });

  it('refuses a missing root with E_FS_NOT_FOUND and a file root with E_FS_NOT_DIRECTORY', async () => {
    expect(await codeOf(createNodeWorkspaceFs({ root: join(base, 'nope'), access: 'read' }))).toBe('E_FS_NOT_FOUND');
    await writeFile(join(base, 'file'), 'x');
    expect(await codeOf(createNodeWorkspaceFs({ root: join(base, 'file'), access: 'read' }))).toBe(
      'E_FS_NOT_DIRECTORY',
    );
  });

  it('keeps the old content and leaves no temp file when a write fails midway', async () => {
    const fs = await createNodeWorkspaceFs({ root: base, access: 'read-write' });
    await fs.writeText('doc.txt', 'old');
    // Bytes that fail once the temp file exists: the size check passes, consuming them throws.
    const data = new Uint8Array(16);
    const failing = new Proxy(data, {
      get(target, key) {
        if (key === 'byteLength' || key === 'length') return target.byteLength;
        throw new Error('simulated failure while writing');
      },
    });
    expect(await codeOf(fs.writeBytes('doc.txt', failing))).not.toBe('resolved');
    expect(await readFile(join(base, 'doc.txt'), 'utf8')).toBe('old');
    expect(await readdir(base)).toEqual(['doc.txt']);
  });
});

// Node follows links that stay inside the workspace, so the write policy judges the path a write really reaches.
describe('Node WorkspaceFs, the write policy and symbolic links', () => {
  let base: string;
  let fs: WorkspaceFs;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-wsfs-policy-'));
    await mkdir(join(base, '.git', 'hooks'), { recursive: true });
    await writeFile(join(base, '.git', 'config'), '[core]\n');
    await mkdir(join(base, '.vscode'));
    await symlink('.git', join(base, 'notes'));
    await symlink('.git/config', join(base, 'cfg.txt'));
    await symlink('.vscode', join(base, 'editor'));
    await mkdir(join(base, 'docs'));
    fs = await createNodeWorkspaceFs({ root: base, access: 'read-write' });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('names the real path behind links, for existing and missing paths', async () => {
    expect(await fs.realPath!('notes/config')).toBe('.git/config');
    expect(await fs.realPath!('notes/hooks/pre-commit')).toBe('.git/hooks/pre-commit');
    expect(await fs.realPath!('cfg.txt')).toBe('.git/config');
    expect(await fs.realPath!('docs/new/file.md')).toBe('docs/new/file.md');
    expect(await fs.realPath!('')).toBe('');
  });

  it('refuses writes that reach .git through a link, and makes writes into .vscode through a link ask', async () => {
    const guarded = protectWrites(fs, { allowGitWrites: false });
    for (const path of ['notes/config', 'notes/hooks/pre-commit', 'cfg.txt', 'docs/../notes/config']) {
      expect([path, await codeOf(guarded.writeText(path, 'x'))]).toEqual([path, 'E_PATH_PROTECTED']);
    }
    expect(await codeOf(guarded.mkdir('notes/hooks/more'))).toBe('E_PATH_PROTECTED');
    expect(await codeOf(guarded.remove('notes/config'))).toBe('E_PATH_PROTECTED');
    expect(await readFile(join(base, '.git', 'config'), 'utf8')).toBe('[core]\n');
    await expect(judgeWrite(fs, 'notes/config')).rejects.toThrow(/symbolic link to \.git\/config/);
    expect((await judgeWrite(fs, 'editor/settings.json')).ask).toBe('vscode');
    // Removing the link itself does not touch .git; allowed writes go through the link.
    await guarded.remove('cfg.txt');
    await protectWrites(fs, { allowGitWrites: true }).writeText('notes/config', '[core]\n\tbare = true\n');
    expect(await readFile(join(base, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = true\n');
  });

  it('refuses writes that reach .i (session logs, checkpoints) through a link, whatever the policy allows', async () => {
    await mkdir(join(base, '.i', 'sessions', 'work', 'checkpoints'), { recursive: true });
    await writeFile(join(base, '.i', 'sessions', 'work', 'checkpoints', 'records.ndjson'), '{"seq":1}\n');
    await symlink('.i/sessions', join(base, 'history'));
    await symlink('.i/sessions/work/checkpoints/records.ndjson', join(base, 'log.txt'));
    for (const allowGitWrites of [false, true]) {
      const guarded = protectWrites(fs, { allowGitWrites });
      for (const path of ['history/work/checkpoints/records.ndjson', 'log.txt', 'docs/../history/new.txt']) {
        expect([path, await codeOf(guarded.writeText(path, ''))]).toEqual([path, 'E_PATH_PROTECTED']);
      }
      expect(await codeOf(guarded.mkdir('history/other'))).toBe('E_PATH_PROTECTED');
      expect(await codeOf(guarded.remove('history/work/checkpoints/records.ndjson'))).toBe('E_PATH_PROTECTED');
    }
    await expect(judgeWrite(fs, 'log.txt', { allowGitWrites: true })).rejects.toThrow(
      /symbolic link to \.i\/sessions\/work\/checkpoints\/records\.ndjson, inside \.i/,
    );
    expect(await readFile(join(base, '.i', 'sessions', 'work', 'checkpoints', 'records.ndjson'), 'utf8')).toBe(
      '{"seq":1}\n',
    );
  });

  it('names the real path a write reaches through a link on its target, for approval rules', async () => {
    await symlink('docs', join(base, 'papers'));
    expect(await judgeWrite(fs, 'papers/a.md')).toMatchObject({ path: { path: 'papers/a.md' }, realPath: 'docs/a.md' });
    expect((await judgeWrite(fs, 'docs/a.md')).realPath).toBeUndefined();
  });
});

describe('Node WorkspaceFs and special files', () => {
  it('refuses to read a FIFO at once (E_FS_IO) instead of waiting for a writer that never comes', async () => {
    const { execFileSync } = await import('node:child_process');
    const base = await mkdtemp(join(tmpdir(), 'i-wsfs-fifo-'));
    try {
      execFileSync('mkfifo', [join(base, 'pipe')]);
      for (const blockingCalls of [false, true]) {
        const fs = await createNodeWorkspaceFs({ root: base, access: 'read', blockingCalls });
        await expect(fs.readBytes('pipe')).rejects.toMatchObject({ code: 'E_FS_IO' });
      }
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('Node WorkspaceFs with blocking calls', () => {
  it('lets the event loop run between slices of synchronous reads, so timers and signals are not starved', async () => {
    const base = await mkdtemp(join(tmpdir(), 'i-wsfs-slices-'));
    try {
      await Promise.all(Array.from({ length: 200 }, (_, i) => writeFile(join(base, `f${i}.txt`), 'x'.repeat(2000))));
      const fs = await createNodeWorkspaceFs({ root: base, access: 'read', blockingCalls: true });
      // Reads awaited one after another settle in microtasks only: without slices a macrotask queued before the
      // run (a timer, a signal, a socket's data) could not run until the whole run ended. 2,000 reads take far
      // longer than one 4 ms slice on any machine, so the queued callback must run part-way through.
      let done = 0;
      let ranAfter = -1;
      setImmediate(() => (ranAfter = done));
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < 200; i++) {
          await fs.readBytes(`f${i}.txt`);
          done++;
        }
      }
      await fs.list('');
      expect(ranAfter).toBeGreaterThanOrEqual(0);
      expect(ranAfter).toBeLessThan(2000);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});
