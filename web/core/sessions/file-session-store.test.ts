import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../contracts/messages';
import { createCheckpointSink } from './checkpoint-sink';
import { createFileSessionStore } from './node-file-store';
import { sessionStoreSuite } from './session-store-suite';

const roots = new Map<string, string>();
sessionStoreSuite('file', {
  async store(workspace, key) {
    if (!roots.has(key)) roots.set(key, mkdtempSync(join(tmpdir(), 'i-sessions-')));
    return createFileSessionStore({ root: roots.get(key)!, workspace: `/projects/${workspace}` });
  },
  async damageEntry(key, id, seq) {
    // Not JSON any more, same length: the rest of the log stays where the checkpoint says.
    const file = join(roots.get(key)!, id, 'log.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[seq] = `{${' '.repeat(Buffer.byteLength(lines[seq]!) - 1)}`;
    writeFileSync(file, lines.join('\n'));
  },
});

const user = (text: string): Message => ({ role: 'user', content: text });

describe('file session store crash consistency', () => {
  it('loads the last complete checkpoint when a commit dies between the log append and the pointer move', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-crash-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    const info = await store.create({ title: 't', id: 'crash' });
    const sink = createCheckpointSink(store, info, []);
    await sink.save([user('one')]);
    const dying = createFileSessionStore({
      root,
      workspace: '/p',
      failpoint: () => {
        throw new Error('killed');
      },
    });
    await expect(dying.commit('crash', [{ kind: 'message', message: user('two') }], 0)).rejects.toThrow('killed');
    expect(readFileSync(join(root, 'crash', 'log.ndjson'), 'utf8')).toContain('two');
    // A restarted process sees only the committed entry, and its next commit replaces the orphaned line.
    const restarted = createFileSessionStore({ root, workspace: '/p' });
    expect((await restarted.load('crash')).messages).toEqual([user('one')]);
    await restarted.commit('crash', [{ kind: 'message', message: user('three') }], 0);
    expect((await restarted.load('crash')).messages).toEqual([user('one'), user('three')]);
    expect(readFileSync(join(root, 'crash', 'log.ndjson'), 'utf8')).not.toContain('two');
  });

  it('ignores a torn half-written line after the pointer', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-torn-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    await store.create({ title: 't', id: 'torn' });
    await store.commit('torn', [{ kind: 'message', message: user('ok') }], -1);
    appendFileSync(join(root, 'torn', 'log.ndjson'), '{"seq":1,"entry":{"kind":"mess');
    expect((await store.load('torn')).messages).toEqual([user('ok')]);
  });

  it('refuses session names that are paths', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-names-'));
    mkdirSync(root, { recursive: true });
    const store = createFileSessionStore({ root, workspace: '/p' });
    for (const bad of ['../x', 'a/b', 'a\\b', '..', '.hidden', '']) {
      await expect(store.create({ title: 't', id: bad })).rejects.toMatchObject({ code: 'E_SESSION_NAME_INVALID' });
    }
  });
});

describe('file session store corruption', () => {
  it('reports a damaged committed line with a stable code instead of a parser error', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-corrupt-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    await store.create({ title: 't', id: 'bad' });
    await store.commit('bad', [{ kind: 'message', message: user('ok') }], -1);
    const file = join(root, 'bad', 'log.ndjson');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"seq":0', '"seq":0,'));
    await expect(store.load('bad')).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT' });
  });
});

describe('file session store locking', () => {
  it("refuses to commit while another live process holds the lock, and takes over a dead one's lock", async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-lock-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    await store.create({ title: 't', id: 'locked' });
    writeFileSync(join(root, 'locked', 'lock'), String(process.ppid));
    await expect(store.commit('locked', [{ kind: 'message', message: user('x') }], -1)).rejects.toMatchObject({
      code: 'E_SESSION_BUSY',
    });
    const { spawnSync } = await import('node:child_process');
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)']).stdout.toString().trim();
    writeFileSync(join(root, 'locked', 'lock'), dead);
    await store.commit('locked', [{ kind: 'message', message: user('x') }], -1);
    expect((await store.load('locked')).messages).toEqual([user('x')]);
  });
});

describe('file session store with damaged or moved files', () => {
  const setup = async (id: string, count = 3) => {
    const root = mkdtempSync(join(tmpdir(), 'i-damage-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    await store.create({ title: 't', id });
    await store.commit(
      id,
      Array.from({ length: count }, (_, i) => ({ kind: 'message' as const, message: user(`m${i}`) })),
      -1,
    );
    const dir = join(root, id);
    return { root, store, dir, log: join(dir, 'log.ndjson'), checkpoint: join(dir, 'checkpoint.json') };
  };
  const editLine = (file: string, index: number, edit: (line: string) => string) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[index] = edit(lines[index]!);
    writeFileSync(file, lines.join('\n'));
  };

  it('names the damaged middle line and what to do, and changes nothing on load or on a later commit', async () => {
    const { store, log } = await setup('mid');
    editLine(log, 1, (line) => line.slice(0, 12)); // the log is now shorter than its checkpoint, too
    const before = readFileSync(log);
    const error = await store.load('mid').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'E_SESSION_CORRUPT', data: { line: 2, intactEntries: 1 } });
    expect((error as Error).message).toMatch(/line 2 of .*log\.ndjson \(entry 1, at byte \d+\) is not valid JSON/);
    expect((error as Error).message).toContain('Entries 0–0 are intact; nothing was changed');
    expect((error as Error).message).toContain('--session-name');
    expect((error as Error).message).toMatch(
      /`i -C "[^"]+" --session-name mid --recover NEW_NAME` \(this one stays as it is\)/,
    );
    // A commit must not truncate (pad) the damaged log to the checkpoint's length and append after it.
    await expect(store.commit('mid', [{ kind: 'message', message: user('more') }], 2)).rejects.toMatchObject({
      code: 'E_SESSION_CORRUPT',
    });
    expect(readFileSync(log)).toEqual(before);
  });

  it('refuses a line that is JSON but not an entry, naming it', async () => {
    const { store, log } = await setup('shape');
    editLine(log, 2, () =>
      JSON.stringify({ seq: 2, entry: { kind: 'message', message: { role: 'wizard', content: 'x' } } }).padEnd(
        readFileSync(log, 'utf8').split('\n')[2]!.length,
      ),
    );
    await expect(store.load('shape')).rejects.toMatchObject({
      code: 'E_SESSION_CORRUPT',
      data: { line: 3, intactEntries: 2 },
    });
    editLine(log, 2, () => 'null');
    await expect(store.load('shape')).rejects.toMatchObject({
      code: 'E_SESSION_CORRUPT',
      message: expect.stringContaining('line 3'),
    });
  });

  it('refuses a checkpoint that points past the end of the log without writing to it', async () => {
    const { store, log, checkpoint } = await setup('past');
    const cp = JSON.parse(readFileSync(checkpoint, 'utf8'));
    writeFileSync(checkpoint, JSON.stringify({ ...cp, checkpointSeq: 5, logBytes: cp.logBytes + 200 }));
    const before = readFileSync(log);
    await expect(store.load('past')).rejects.toMatchObject({
      code: 'E_SESSION_CORRUPT',
      message: expect.stringContaining('the end of the log is missing'),
    });
    await expect(store.commit('past', [{ kind: 'message', message: user('x') }], 5)).rejects.toMatchObject({
      code: 'E_SESSION_CORRUPT',
    });
    expect(readFileSync(log)).toEqual(before);
  });

  it('reports a cut-short, non-object or newer checkpoint.json with a code, and can still delete it', async () => {
    const { store, checkpoint, dir } = await setup('cp');
    const text = readFileSync(checkpoint, 'utf8');
    writeFileSync(checkpoint, text.slice(0, 40));
    await expect(store.get('cp')).rejects.toMatchObject({
      code: 'E_SESSION_CORRUPT',
      message: expect.stringContaining('is not valid JSON'),
    });
    for (const bad of ['null', '{"version":1}', '[]']) {
      writeFileSync(checkpoint, bad);
      await expect(store.load('cp')).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT' });
    }
    writeFileSync(checkpoint, JSON.stringify({ ...JSON.parse(text), version: 2 }));
    await expect(store.load('cp')).rejects.toMatchObject({
      code: 'E_SESSION_VERSION',
      message: expect.stringContaining('newer i'),
    });
    await store.delete('cp');
    expect(existsSync(dir)).toBe(false);
  });

  it('does not wipe a log.ndjson whose checkpoint.json is missing', async () => {
    const { store, log, checkpoint } = await setup('orphan');
    const before = readFileSync(log);
    rmSync(checkpoint);
    await expect(store.create({ title: 't', id: 'orphan' })).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT' });
    expect(readFileSync(log)).toEqual(before);
  });

  it('reports a session folder removed while a commit runs as E_SESSION_GONE, not E_SESSION_BUSY', async () => {
    const { root, store } = await setup('gone', 1);
    const racing = createFileSessionStore({
      root,
      workspace: '/p',
      failpoint: () => rmSync(join(root, 'gone'), { recursive: true }),
    });
    await expect(racing.commit('gone', [{ kind: 'message', message: user('x') }], 0)).rejects.toMatchObject({
      code: 'E_SESSION_GONE',
    });
    // Removed between opening the session (the start of a run) and its next checkpoint.
    const info = await store.create({ title: 't', id: 'gone2' });
    rmSync(join(root, 'gone2'), { recursive: true });
    const error = await store
      .commit('gone2', [{ kind: 'message', message: user('x') }], info.checkpointSeq)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'E_SESSION_GONE',
      message: expect.stringContaining('was removed while this run was saving'),
    });
  });

  it('writes a copied session folder into the copy, never into the original', async () => {
    const { root, store, dir } = await setup('orig', 1);
    cpSync(dir, join(root, 'copy'), { recursive: true });
    const copy = await store.load('copy');
    expect(copy.info.id).toBe('copy');
    await store.commit('copy', [{ kind: 'message', message: user('only in copy') }], 0);
    expect((await store.load('orig')).messages).toEqual([user('m0')]);
    expect((await store.load('copy')).messages).toEqual([user('m0'), user('only in copy')]);
  });

  it('lets only one of two writers in one process commit on the same checkpoint', async () => {
    const { store } = await setup('two', 1);
    const results = await Promise.allSettled(
      [0, 1].map((i) => store.commit('two', [{ kind: 'message', message: user(`writer ${i}`) }], 0)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code: string }).code] : []));
    expect(['E_SESSION_BUSY', 'E_SESSION_CONFLICT']).toContain(codes[0]);
    expect((await store.load('two')).messages).toHaveLength(2);
  });

  it('never loses a rename or a commit that run at the same time', async () => {
    const { store } = await setup('race', 1);
    const [commit, rename] = await Promise.allSettled([
      store.commit('race', [{ kind: 'message', message: user('x') }], 0),
      store.rename('race', 'renamed'),
    ]);
    const loaded = await store.load('race');
    if (commit.status === 'fulfilled') expect(loaded.messages).toEqual([user('m0'), user('x')]);
    if (rename.status === 'fulfilled') expect(loaded.info.title).toBe('renamed');
    else expect(rename.reason).toMatchObject({ code: 'E_SESSION_BUSY' });
  });

  it('reads back a long line (a large tool result) exactly', async () => {
    const { store } = await setup('big', 0);
    const big = `${'长'.repeat(3_000_000)}🙂`;
    await store.commit('big', [{ kind: 'message', message: user(big) }], -1);
    expect((await store.load('big')).messages[0]).toEqual(user(big));
  });
});

describe('file session store opening from the last reset', () => {
  it('keeps the reset offset in checkpoint.json, and loads the whole log when that hint does not point at a reset', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-reset-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    const info = await store.create({ title: 't', id: 'hint' });
    const sink = createCheckpointSink(store, info, []);
    await sink.save([user('one'), { role: 'assistant', content: 'a1' }]);
    await sink.save([user('summary')]);
    await sink.save([user('summary'), { role: 'assistant', content: 'a2' }]);
    const file = join(root, 'hint', 'checkpoint.json');
    const cp = JSON.parse(readFileSync(file, 'utf8')) as { resetSeq: number; resetBytes: number };
    const log = readFileSync(join(root, 'hint', 'log.ndjson'));
    expect(cp.resetSeq).toBe(2);
    expect(JSON.parse(log.subarray(cp.resetBytes, log.indexOf(0x0a, cp.resetBytes)).toString())).toMatchObject({
      seq: 2,
      entry: { kind: 'reset' },
    });
    // A hint (e.g. edited by hand) pointing at the plain message line after the reset: replaying from there would
    // drop the reset, so the whole log is replayed instead.
    writeFileSync(file, JSON.stringify({ ...cp, resetSeq: 3, resetBytes: log.indexOf(0x0a, cp.resetBytes) + 1 }));
    expect((await store.load('hint')).messages).toEqual([user('summary'), { role: 'assistant', content: 'a2' }]);
    writeFileSync(file, JSON.stringify({ ...cp, resetSeq: 'x' }));
    await expect(store.load('hint')).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT' });
  });
});
