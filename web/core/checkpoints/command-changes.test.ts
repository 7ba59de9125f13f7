// What a command changes in a real folder is recorded like an edit (issue 31): real git, a real session-folder store,
// real processes between begin and finish, and the records reverted through the ordinary revert.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { protectWrites } from '../contracts';
import { changesOf } from './changes';
import { createCommandRecorder, E_CHECKPOINT_COMMAND_UNTRACKED, type CommandLimits } from './command-changes';
import { parseGitIndex } from './git-index';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints } from './recorder';
import { revertSince } from './revert';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sh = (cwd: string, script: string) => execFileSync('sh', ['-c', script], { cwd });

async function workspace(files: Record<string, string | Uint8Array>, limits?: Partial<CommandLimits>) {
  const dir = mkdtempSync(join(tmpdir(), 'i-cmd-changes-'));
  made.push(dir);
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  const sessions = join(dir, '.i', 'sessions');
  const store = createNodeCheckpointStore({ sessionsRoot: sessions });
  const turn = await startTurnCheckpoints({ store, session: 'work' });
  const recorder = createCommandRecorder({
    store,
    session: 'work',
    turn: turn.turn,
    root: dir,
    shadowDir: join(sessions, 'work', 'checkpoints', 'shadow.git'),
    ...(limits ? { limits } : {}),
  });
  const fs = protectWrites(await createNodeWorkspaceFs({ root: dir, access: 'read-write' }), { allowGitWrites: false });
  const writes = async () => (await store.list('work')).filter((r) => r.kind === 'write');
  return { dir, store, turn, recorder, fs, writes };
}

/** A command run between begin and finish, as the shell tool runs one. */
async function command(w: Awaited<ReturnType<typeof workspace>>, script: string, id = 'call-1') {
  const watch = await w.recorder.commandChangesFor({ id, name: 'shell', step: 2 }).begin(script);
  sh(w.dir, script);
  return { watch, summary: await watch.finish() };
}

// Bytes a text round trip (or git's line-ending conversion) would change: NUL, CRLF, a lone CR, invalid UTF-8.
const BINARY = new Uint8Array([0, 1, 2, 13, 10, 13, 255, 254, 0x80, 10, 0, 0x1b]);

describe('the changes of a command', () => {
  it('records created, modified and deleted files, and a revert restores all three to identical bytes', async () => {
    // The workspace asks git to normalise line endings: the snapshot must keep the bytes as they are regardless.
    const w = await workspace({
      '.gitattributes': '* text\n',
      'old.txt': 'old\r\n',
      'gone.txt': 'gone\n',
      'keep.txt': 'same\n',
      'bin/data.bin': BINARY,
    });
    const { watch, summary } = await command(
      w,
      `echo x > new.txt; echo y >> old.txt; rm gone.txt; printf '\\001\\000' >> bin/data.bin`,
    );
    expect(watch.untracked).toBeUndefined();
    expect(summary).toEqual({ created: ['new.txt'], modified: ['bin/data.bin', 'old.txt'], deleted: ['gone.txt'] });
    const records = await w.writes();
    expect(records.map((r) => [r.path, r.tool, r.callId, r.step, r.turn, r.beforeBytes, r.afterBytes])).toEqual([
      ['bin/data.bin', 'shell', 'call-1', 2, 1, 12, 14],
      ['gone.txt', 'shell', 'call-1', 2, 1, 5, null],
      ['new.txt', 'shell', 'call-1', 2, 1, null, 2],
      ['old.txt', 'shell', 'call-1', 2, 1, 5, 7],
    ]);
    expect(changesOf(await w.store.list('work')).changes.map((c) => [c.path, c.change])).toEqual([
      ['bin/data.bin', 'modified'],
      ['gone.txt', 'deleted'],
      ['new.txt', 'created'],
      ['old.txt', 'modified'],
    ]);

    const reverted = await revertSince({ store: w.store, fs: w.fs, session: 'work' }, 1);
    expect(reverted.files).toHaveLength(4);
    expect(readFileSync(join(w.dir, 'old.txt'), 'utf8')).toBe('old\r\n');
    expect(readFileSync(join(w.dir, 'gone.txt'), 'utf8')).toBe('gone\n');
    expect(existsSync(join(w.dir, 'new.txt'))).toBe(false);
    expect(new Uint8Array(readFileSync(join(w.dir, 'bin/data.bin')))).toEqual(BINARY);
  });

  it('does not record ignored files, .git or .i, and honours the workspace .git/info/exclude', async () => {
    const w = await workspace({ '.gitignore': 'build/\n*.log\n', 'src/a.ts': 'a\n' });
    sh(w.dir, 'git init -q . && echo secret.txt > .git/info/exclude');
    const { summary } = await command(
      w,
      'mkdir -p build && echo o > build/out.js && echo l > x.log && echo s > secret.txt && echo h > .git/info/extra && mkdir -p .i/other && echo n > .i/other/note && echo b >> src/a.ts',
    );
    expect(summary).toEqual({ created: [], modified: ['src/a.ts'], deleted: [] });
    expect((await w.writes()).map((r) => r.path)).toEqual(['src/a.ts']);
  });

  it('records a file the workspace repository tracks although a .gitignore matches it, as its git status would', async () => {
    const w = await workspace({
      '.gitignore': 'dist/\n',
      'dist/app.js': 'v1\n',
      'dist/[x].js': 'x\n',
      'src/a.ts': 'a\n',
    });
    sh(w.dir, "git init -q . && git add -A && git add -f dist/app.js 'dist/[x].js'");
    const { summary } = await command(w, 'echo v2 > dist/app.js; echo other > dist/other.js');
    expect(summary).toEqual({ created: [], modified: ['dist/app.js'], deleted: [] });
    await revertSince({ store: w.store, fs: w.fs, session: 'work' }, 1);
    expect(readFileSync(join(w.dir, 'dist/app.js'), 'utf8')).toBe('v1\n');
  });

  it('refuses before the command runs past the file count, and records nothing of it', async () => {
    const w = await workspace({ a: '1', b: '2', c: '3', d: '4' }, { files: 3 });
    const { watch, summary } = await command(w, 'echo x > e');
    expect(watch.untracked?.code).toBe(E_CHECKPOINT_COMMAND_UNTRACKED);
    expect(watch.untracked?.message).toMatch(/more than 3 files that are not ignored \(4\)/);
    sh(w.dir, 'echo x > e'); // a tool may still run it, knowing it is not recorded
    expect(summary).toEqual({ created: [], modified: [], deleted: [] });
    expect(await w.writes()).toEqual([]);
  });

  it('refuses past the size of one file, naming it, and records again once it is ignored', async () => {
    const w = await workspace({ 'big.bin': 'x'.repeat(100), 'small.txt': 's' }, { fileBytes: 64 });
    const first = await command(w, 'echo y >> small.txt');
    expect(first.watch.untracked?.code).toBe(E_CHECKPOINT_COMMAND_UNTRACKED);
    expect(first.watch.untracked?.message).toContain('big.bin is');
    expect(await w.writes()).toEqual([]);
    writeFileSync(join(w.dir, '.gitignore'), 'big.bin\n');
    const second = await command(w, 'echo z >> small.txt');
    expect(second.watch.untracked).toBeUndefined();
    expect(second.summary.modified).toEqual(['small.txt']);
  });

  it('refuses past the total size', async () => {
    const w = await workspace({ a: 'x'.repeat(40), b: 'y'.repeat(40) }, { totalBytes: 64 });
    const { watch } = await command(w, 'true');
    expect(watch.untracked?.message).toMatch(/hold .* MiB, more than/);
  });

  it('a file the command makes past the size limit is named in the note, the rest recorded', async () => {
    const w = await workspace({ 'a.txt': 'a' }, { fileBytes: 64 });
    const { summary } = await command(w, `head -c 200 /dev/zero > huge.bin; echo b >> a.txt`);
    expect(summary.modified).toEqual(['a.txt']);
    expect(summary.created).toEqual([]);
    expect(summary.note).toContain('huge.bin');
    expect((await w.writes()).map((r) => r.path)).toEqual(['a.txt']);
  });

  it('overlapping commands record each change once, and the turn reverts cleanly', async () => {
    const w = await workspace({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const long = await w.recorder.commandChangesFor({ id: 'bg', name: 'shell', step: 1 }).begin('bg');
    sh(w.dir, 'echo a1 > a.txt'); // the background command's write
    const short = await w.recorder.commandChangesFor({ id: 'fg', name: 'shell', step: 1 }).begin('fg');
    sh(w.dir, 'echo b1 > b.txt'); // the second command's write
    const fg = await short.finish();
    sh(w.dir, 'echo a2 > a.txt'); // the background command again
    const bg = await long.finish();
    expect(fg.modified).toEqual(['b.txt']);
    expect(bg.modified).toEqual(['a.txt']); // b.txt was seen by both and recorded once
    expect((await w.writes()).map((r) => [r.callId, r.path, r.beforeBytes, r.afterBytes])).toEqual([
      ['fg', 'b.txt', 3, 3],
      ['bg', 'a.txt', 3, 3],
    ]);
    await revertSince({ store: w.store, fs: w.fs, session: 'work' }, 1);
    expect(readFileSync(join(w.dir, 'a.txt'), 'utf8')).toBe('a0\n');
    expect(readFileSync(join(w.dir, 'b.txt'), 'utf8')).toBe('b0\n');
  });

  it('a tool write during a command is not recorded a second time', async () => {
    const w = await workspace({ 'a.txt': 'a0\n' });
    const watch = await w.recorder.commandChangesFor({ id: 'cmd', name: 'shell', step: 1 }).begin('x');
    await w.turn.fsFor({ id: 'w1', name: 'write', step: 1 }, w.fs).writeText('a.txt', 'by the write tool\n');
    sh(w.dir, 'echo c > c.txt');
    const summary = await watch.finish();
    expect(summary).toEqual({ created: ['c.txt'], modified: [], deleted: [] });
    expect((await w.writes()).map((r) => [r.tool, r.path])).toEqual([
      ['write', 'a.txt'],
      ['shell', 'c.txt'],
    ]);
  });

  it('a before the snapshot lost is named in the note, the other changes recorded', async () => {
    const w = await workspace({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const watch = await w.recorder.commandChangesFor({ id: 'c', name: 'shell', step: 1 }).begin('x');
    const shadow = join(w.dir, '.i', 'sessions', 'work', 'checkpoints', 'shadow.git');
    const oid = parseGitIndex(new Uint8Array(readFileSync(join(shadow, 'index')))).find((e) => e.path === 'a.txt')!.oid;
    rmSync(join(shadow, 'objects', oid.slice(0, 2), oid.slice(2)));
    sh(w.dir, 'echo a1 > a.txt; echo b1 > b.txt');
    const summary = await watch.finish();
    expect(summary.modified).toEqual(['b.txt']);
    expect(summary.note).toContain('contents missing from the snapshot: a.txt');
    expect((await w.writes()).map((r) => r.path)).toEqual(['b.txt']);
  });

  it('says so before the command when git is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'i-cmd-nogit-'));
    made.push(dir);
    const store = createNodeCheckpointStore({ sessionsRoot: join(dir, '.i', 'sessions') });
    const recorder = createCommandRecorder({
      store,
      session: 'work',
      turn: 1,
      root: dir,
      shadowDir: join(dir, '.i', 'shadow.git'),
      git: join(dir, 'no-such-git'),
    });
    const watch = await recorder.commandChangesFor({ id: 'c', name: 'shell', step: 1 }).begin('true');
    expect(watch.untracked?.code).toBe('E_CHECKPOINT_NO_GIT');
    expect(watch.untracked?.message).toMatch(/Install git/);
  });

  it('tidy keeps what the current snapshot names', async () => {
    const w = await workspace({ 'a.txt': 'a0\n' });
    await command(w, 'echo a1 > a.txt');
    const shadow = join(w.dir, '.i', 'sessions', 'work', 'checkpoints', 'shadow.git');
    const env = { ...process.env, GIT_DIR: shadow, GIT_WORK_TREE: w.dir };
    execFileSync('git', ['prune', '--expire=now'], { env });
    const oid = parseGitIndex(new Uint8Array(readFileSync(join(shadow, 'index')))).find((e) => e.path === 'a.txt')!.oid;
    expect(execFileSync('git', ['cat-file', '-p', oid], { env }).toString()).toBe('a1\n');
    await w.recorder.tidy();
    const { summary } = await command(w, 'echo a2 > a.txt', 'call-2');
    expect(summary.modified).toEqual(['a.txt']);
    expect((await w.writes()).map((r) => r.beforeBytes)).toEqual([3, 3]);
  });
});

describe('the git index reader', () => {
  it('reads versions 2 and 4 alike, as git lists them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'i-git-index-'));
    made.push(dir);
    const files = ['a', 'dir/b c', 'dir/sub/long-name-é.txt', 'dir/sub/long-name-f.txt', 'z'];
    for (const f of files) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), f.repeat(3));
    }
    sh(dir, 'git init -q . && git add -A');
    const listed = execFileSync('git', ['ls-files', '-s', '-z'], { cwd: dir })
      .toString('utf8')
      .split('\0')
      .filter(Boolean)
      .map((line) => {
        const [meta, path] = line.split('\t');
        const [mode, oid] = meta!.split(' ');
        return { path, mode: parseInt(mode!, 8), oid };
      });
    for (const version of ['2', '4']) {
      sh(dir, `git update-index --index-version ${version}`);
      const entries = parseGitIndex(new Uint8Array(readFileSync(join(dir, '.git', 'index'))));
      expect(entries.map((e) => ({ path: e.path, mode: e.mode, oid: e.oid }))).toEqual(listed);
      expect(entries.map((e) => e.size)).toEqual(entries.map((e) => Buffer.byteLength(e.path) * 3));
    }
  });
});
