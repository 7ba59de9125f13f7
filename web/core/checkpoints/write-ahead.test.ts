// The recorder's write path (write-ahead, issue 16's bench work): the prior state and the record are stored before the
// file changes, a failed write leaves neither a record nor stored contents behind, a tool's own read just before its
// write is the write's "before" (no second read), and a read older than the reuse bound is never trusted.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { protectWrites, type WorkspaceFs } from '../contracts/fs';
import { createNodeCheckpointStore } from './node-store';
import { startTurnCheckpoints } from './recorder';
import { ABSENT, type CheckpointStore } from './types';

async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'ckpt-wal-'));
  const sessions = mkdtempSync(join(tmpdir(), 'ckpt-wal-s-'));
  await writeFile(join(dir, 'f.txt'), 'A\n');
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  const store = createNodeCheckpointStore({ sessionsRoot: sessions });
  const reads: string[] = [];
  const counted: WorkspaceFs = { ...fs, readBytes: (path, o) => (reads.push(path), fs.readBytes(path, o)) };
  return { dir, sessions, fs, counted, reads, store };
}

const sha = (store: CheckpointStore, text: string) => store.sha256(new TextEncoder().encode(text));

describe('the recorder’s write path', () => {
  it('has the prior contents and the record stored before the file changes', async () => {
    const { dir, fs, store } = await setup();
    let seenByWrite: unknown = null;
    // The file system calls beforeCommit before the new contents replace the file: when it has settled, the record
    // and the prior contents are stored, and the file on disk still holds what it held.
    const spy: WorkspaceFs = {
      ...fs,
      writeText: (path, text, o) =>
        fs.writeText(path, text, {
          beforeCommit: async () => {
            await o!.beforeCommit!();
            seenByWrite = {
              records: await store.list('s'),
              prior: await store.getBlob('s', await sha(store, 'A\n')),
              onDisk: await readFile(join(dir, 'f.txt'), 'utf8'),
            };
          },
        }),
    };
    const turn = await startTurnCheckpoints({ store, session: 's' });
    await turn.fsFor({ id: 'c1', name: 'write', step: 1 }, spy).writeText('f.txt', 'B\n');
    expect((seenByWrite as { onDisk: string }).onDisk).toBe('A\n');
    const { records, prior } = seenByWrite as {
      records: Array<{ kind: string; path: string; before: string }>;
      prior: Uint8Array | null;
    };
    expect(records.filter((r) => r.kind === 'write').map((r) => r.path)).toEqual(['f.txt']);
    expect(new TextDecoder().decode(prior!)).toBe('A\n');
    expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('B\n');
    expect(new TextDecoder().decode((await store.getBlob('s', await sha(store, 'B\n')))!)).toBe('B\n');
  });

  it('drops the record and the contents stored for a write that then fails, leaving no orphan', async () => {
    const { sessions, fs, store } = await setup();
    const turn = await startTurnCheckpoints({ store, session: 's' });
    // The prior state is staged (the hook runs and settles), then the file write fails.
    const failing: WorkspaceFs = {
      ...fs,
      writeText: async (_path, _text, o) => {
        await o!.beforeCommit!();
        throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      },
    };
    await expect(
      turn.fsFor({ id: 'c1', name: 'write', step: 1 }, failing).writeText('f.txt', 'never written\n'),
    ).rejects.toThrow('disk full');
    expect((await store.list('s')).filter((r) => r.kind === 'write')).toEqual([]);
    expect(await readdir(join(sessions, 's', 'checkpoints', 'blobs')).catch(() => [])).toEqual([]);
    expect(await store.usedBytes()).toBe(0);
  });

  it('refuses loudly when a file system wrote without calling beforeCommit (no undo was kept)', async () => {
    const { fs, store } = await setup();
    const turn = await startTurnCheckpoints({ store, session: 's' });
    const careless: WorkspaceFs = { ...fs, writeText: (path, text) => fs.writeText(path, text) };
    const failure = await turn
      .fsFor({ id: 'c1', name: 'write', step: 1 }, careless)
      .writeText('f.txt', 'B\n')
      .catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('E_CHECKPOINT_FAILED');
    expect((await store.list('s')).filter((r) => r.kind === 'write')).toEqual([]);
  });

  it('keeps the write and its prior state when the new contents (stored alongside the file write) fail to store', async () => {
    const { dir, sessions, fs, store } = await setup();
    const afterSha = await sha(store, 'B\n');
    // A folder where the new contents' blob would go: storing them fails, after the record was appended.
    await mkdir(join(sessions, 's', 'checkpoints', 'blobs', afterSha, 'x'), { recursive: true });
    const turn = await startTurnCheckpoints({ store, session: 's' });
    await turn.fsFor({ id: 'c1', name: 'write', step: 1 }, fs).writeText('f.txt', 'B\n');
    expect(await readFile(join(dir, 'f.txt'), 'utf8')).toBe('B\n');
    const [w] = (await store.list('s')).filter((r) => r.kind === 'write');
    expect(w).toMatchObject({ before: await sha(store, 'A\n'), after: afterSha });
    expect(new TextDecoder().decode((await store.getBlob('s', w!.before))!)).toBe('A\n');
    expect(await store.getBlob('s', afterSha)).toBeNull();
    expect(await store.usedBytes()).toBe(2);
    // Not taken as stored: once the way is clear, the next write that names these contents stores them.
    await rm(join(sessions, 's', 'checkpoints', 'blobs', afterSha), { recursive: true });
    await turn.fsFor({ id: 'c2', name: 'write', step: 1 }, fs).writeText('f.txt', 'C\n');
    expect(new TextDecoder().decode((await store.getBlob('s', afterSha))!)).toBe('B\n');
  });

  it('refuses an fs that changed the file before the hook settled, or called it twice, and keeps no record of it', async () => {
    const { dir, fs, store } = await setup();
    const turn = await startTurnCheckpoints({ store, session: 's' });
    // Replaces the file in the same task that asked for the hook, so the hook (which needs I/O) cannot have settled
    // whatever the machine's load: an asynchronous write here made the test depend on which finished first.
    const hasty: WorkspaceFs = {
      ...fs,
      writeText: async (path, text, o) => {
        void o!.beforeCommit!();
        writeFileSync(join(dir, path), text);
      },
    };
    const twice: WorkspaceFs = {
      ...fs,
      writeText: async (path, text, o) => (
        await o!.beforeCommit!(),
        await o!.beforeCommit!(),
        fs.writeText(path, text)
      ),
    };
    for (const bad of [hasty, twice]) {
      const failure = await turn
        .fsFor({ id: 'c1', name: 'write', step: 1 }, bad)
        .writeText('f.txt', 'B\n')
        .catch((e: unknown) => e);
      expect((failure as { code?: string }).code).toBe('E_CHECKPOINT_FAILED');
    }
    expect((await store.list('s')).filter((r) => r.kind === 'write')).toEqual([]);
  });

  it('keeps nothing stored or counted for a write refused because its prior state could not be read', async () => {
    const { dir, store } = await setup();
    const small = await createNodeWorkspaceFs({ root: dir, access: 'read-write', maxBytes: 1000 });
    await writeFile(join(dir, 'big.txt'), 'x'.repeat(5000));
    const turn = await startTurnCheckpoints({ store, session: 's' });
    const failure = await turn
      .fsFor({ id: 'c1', name: 'write', step: 1 }, small)
      .writeText('big.txt', 'short\n')
      .catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('E_CHECKPOINT_FAILED');
    expect(await readFile(join(dir, 'big.txt'), 'utf8')).toBe('x'.repeat(5000));
    expect((await store.list('s')).filter((r) => r.kind === 'write')).toEqual([]);
    expect(await store.usedBytes()).toBe(0);
  });

  it('judges a removal by the write policy before reading anything into the store', async () => {
    const { dir, fs, store } = await setup();
    await mkdir(join(dir, '.git'), { recursive: true });
    await writeFile(join(dir, '.git', 'config'), '[core]\n');
    const turn = await startTurnCheckpoints({ store, session: 's' });
    const read: string[] = [];
    const guarded = protectWrites(
      { ...fs, readBytes: (path, o) => (read.push(path), fs.readBytes(path, o)) },
      { allowGitWrites: false },
    );
    const failure = await turn
      .fsFor({ id: 'c1', name: 'write', step: 1 }, guarded)
      .remove('.git', { recursive: true })
      .catch((e: unknown) => e);
    expect((failure as { code?: string }).code).toBe('E_PATH_PROTECTED');
    expect(read).toEqual([]);
    expect((await store.list('s')).filter((r) => r.kind === 'write')).toEqual([]);
    expect(await readFile(join(dir, '.git', 'config'), 'utf8')).toBe('[core]\n');
  });

  it('takes the tool’s own read just before the write as the prior state instead of reading the file again', async () => {
    const { counted, reads, store } = await setup();
    const turn = await startTurnCheckpoints({ store, session: 's' });
    const cfs = turn.fsFor({ id: 'c1', name: 'edit', step: 1 }, counted);
    const text = new TextDecoder().decode(await cfs.readBytes('f.txt'));
    await cfs.writeText('f.txt', `${text}more\n`);
    expect(reads).toEqual(['f.txt']);
    const [w] = (await store.list('s')).filter((r) => r.kind === 'write');
    expect(w).toMatchObject({ before: await sha(store, 'A\n'), after: await sha(store, 'A\nmore\n') });
    // A file the tool found missing (stat null) is recorded as created, still without a read.
    expect(await cfs.stat('new.txt')).toBeNull();
    await cfs.writeText('new.txt', 'n\n');
    expect(reads).toEqual(['f.txt']);
    expect((await store.list('s')).at(-1)).toMatchObject({ path: 'new.txt', before: ABSENT });
  });

  it('reads afresh when the tool’s read is older than the reuse bound, so a person’s edit in between is kept', async () => {
    const { dir, counted, reads, store } = await setup();
    const turn = await startTurnCheckpoints({ store, session: 's' });
    const cfs = turn.fsFor({ id: 'c1', name: 'plugin_tool', step: 1 }, counted);
    await cfs.readBytes('f.txt');
    await writeFile(join(dir, 'f.txt'), 'PERSON\n');
    await new Promise((done) => setTimeout(done, 150));
    await cfs.writeText('f.txt', 'agent\n');
    expect(reads).toEqual(['f.txt', 'f.txt']);
    const [w] = (await store.list('s')).filter((r) => r.kind === 'write');
    expect(w!.before).toBe(await sha(store, 'PERSON\n'));
    expect(new TextDecoder().decode((await store.getBlob('s', w!.before))!)).toBe('PERSON\n');
  });

  it('checks a file against what it last wrote there byte for byte (no digest of it), in a later turn too', async () => {
    const { fs, store } = await setup();
    const hashed: string[] = [];
    const counting: CheckpointStore = {
      ...store,
      sha256: (bytes) => (hashed.push(new TextDecoder().decode(bytes)), store.sha256(bytes)),
    };
    const t1 = await startTurnCheckpoints({ store: counting, session: 's' });
    await t1.fsFor({ id: 'c1', name: 'write', step: 1 }, fs).writeText('f.txt', 'one\n');
    const t2 = await startTurnCheckpoints({ store: counting, session: 's' });
    await t2.fsFor({ id: 'c2', name: 'write', step: 1 }, fs).writeText('f.txt', 'two\n');
    expect(hashed).toEqual(['one\n', 'A\n', 'two\n']);
    const writes = (await store.list('s')).filter((r) => r.kind === 'write');
    expect(writes[1]!.before).toBe(writes[0]!.after);
  });
});
