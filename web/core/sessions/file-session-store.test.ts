import { mkdtempSync, readFileSync, appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../providers/types';
import { createCheckpointSink } from './checkpoint-sink';
import { createFileSessionStore } from './node-file-store';
import { sessionStoreSuite } from './session-store-suite';

const roots = new Map<string, string>();
sessionStoreSuite('file', {
  async store(workspace, key) {
    if (!roots.has(key)) roots.set(key, mkdtempSync(join(tmpdir(), 'i-sessions-')));
    return createFileSessionStore({ root: roots.get(key)!, workspace: `/projects/${workspace}` });
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
  it('refuses to commit while another live process holds the lock, and takes over a dead one\'s lock', async () => {
    const root = mkdtempSync(join(tmpdir(), 'i-lock-'));
    const store = createFileSessionStore({ root, workspace: '/p' });
    await store.create({ title: 't', id: 'locked' });
    writeFileSync(join(root, 'locked', 'lock'), String(process.ppid));
    await expect(store.commit('locked', [{ kind: 'message', message: user('x') }], -1)).rejects.toMatchObject({ code: 'E_SESSION_BUSY' });
    const { spawnSync } = await import('node:child_process');
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)']).stdout.toString().trim();
    writeFileSync(join(root, 'locked', 'lock'), dead);
    await store.commit('locked', [{ kind: 'message', message: user('x') }], -1);
    expect((await store.load('locked')).messages).toEqual([user('x')]);
  });
});
