// One behaviour suite every SessionStore implementation joins (file store in Node, IndexedDB store).
import { describe, expect, it } from 'vitest';
import type { Message } from '../providers/types';
import { createCheckpointSink } from './checkpoint-sink';
import { exportSession, forkSession, importSession, sessionToMarkdown } from './transfer';
import type { SessionStore } from './types';

export interface SuiteEnv {
  /** A fresh store for a workspace; the same `key` gives a store over the same underlying data. */
  store(workspace: string, key: string): Promise<SessionStore>;
}

const user = (text: string): Message => ({ role: 'user', content: text });
const sys: Message = { role: 'system', content: 'sys' };
const batch: Message[] = [
  { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] },
  { role: 'tool', tool_call_id: 'c1', content: 'AAA' },
];

let n = 0;
export function sessionStoreSuite(name: string, env: SuiteEnv): void {
  describe(`${name} session store`, () => {
    const fresh = () => env.store('ws-a', `k${n++}`);

    it('checkpoints append only new entries and load back the full history', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'one', id: 'one' });
      const sink = createCheckpointSink(store, info, []);
      const history: Message[] = [sys, user('hi')];
      await sink.save(history);
      history.push(...batch, { role: 'assistant', content: 'done' });
      await sink.save(history);
      expect(sink.info.checkpointSeq).toBe(4);
      const loaded = await store.load('one');
      expect(loaded.messages).toEqual(history);
      expect(loaded.info.checkpointSeq).toBe(4);
    });

    it('records a rewritten history as one reset entry', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'r', id: 'r' });
      const sink = createCheckpointSink(store, info, []);
      await sink.save([sys, user('a'), { role: 'assistant', content: 'b' }]);
      const rewritten: Message[] = [sys, user('summary'), user('c')];
      await sink.save(rewritten);
      expect(sink.info.checkpointSeq).toBe(3);
      expect((await store.load('r')).messages).toEqual(rewritten);
    });

    it('refuses to checkpoint a history with an unanswered tool call, keeping the last checkpoint', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'bad', id: 'bad' });
      const sink = createCheckpointSink(store, info, []);
      await sink.save([sys, user('a')]);
      await expect(sink.save([sys, user('a'), batch[0]!])).rejects.toMatchObject({ code: 'E_SESSION_HISTORY_INVALID' });
      expect((await store.load('bad')).messages).toEqual([sys, user('a')]);
    });

    it('refuses a commit whose expected pointer is stale', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'c', id: 'c' });
      await store.commit('c', [{ kind: 'message', message: user('x') }], info.checkpointSeq);
      await expect(store.commit('c', [{ kind: 'message', message: user('y') }], info.checkpointSeq)).rejects.toMatchObject({ code: 'E_SESSION_CONFLICT' });
    });

    it('renames, lists and deletes sessions', async () => {
      const store = await fresh();
      await store.create({ title: 'first', id: 'first' });
      await store.create({ title: 'second', id: 'second' });
      await store.rename('first', 'renamed');
      expect((await store.get('first'))?.title).toBe('renamed');
      expect((await store.list()).map((s) => s.id).sort()).toEqual(['first', 'second']);
      await store.delete('second');
      expect(await store.get('second')).toBeNull();
      await expect(store.load('second')).rejects.toMatchObject({ code: 'E_SESSION_NOT_FOUND' });
    });

    it('refuses to load a session from another workspace', async () => {
      const key = `k${n++}`;
      const a = await env.store('ws-a', key);
      await a.create({ title: 'mine', id: 'mine' });
      const b = await env.store('ws-b', key);
      await expect(b.load('mine')).rejects.toMatchObject({ code: 'E_SESSION_WORKSPACE_MISMATCH' });
      await expect(b.commit('mine', [{ kind: 'message', message: user('x') }], -1)).rejects.toMatchObject({ code: 'E_SESSION_WORKSPACE_MISMATCH' });
    });

    it('exports JSON that imports back as an equal new session, and refuses a malformed import', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'exp', id: 'exp' });
      await store.commit('exp', [sys, user('q'), ...batch].map((message) => ({ kind: 'message' as const, message })), info.checkpointSeq);
      const exported = JSON.parse(JSON.stringify(await exportSession(store, 'exp')));
      const imported = await importSession(store, exported);
      expect((await store.load(imported.id)).messages).toEqual([sys, user('q'), ...batch]);
      await expect(importSession(store, { ...exported, version: 99 })).rejects.toMatchObject({ code: 'E_SESSION_IMPORT_VERSION', message: expect.stringContaining('newer i') });
      await expect(importSession(store, { ...exported, messages: [batch[1]] })).rejects.toMatchObject({ code: 'E_SESSION_IMPORT_INVALID' });
      await expect(importSession(store, { ...exported, extra: 1 })).rejects.toMatchObject({ code: 'E_SESSION_IMPORT_INVALID' });
    });

    it('round-trips an export with unicode, provider fields, images and the creation time', async () => {
      const store = await fresh();
      const title = 'Résumé 会话 🙂 — שלום';
      const info = await store.create({ title, id: 'uni' });
      const history = [
        sys,
        { role: 'user', content: [{ type: 'text', text: '看图 🖼️' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
        { role: 'assistant', content: null, reasoning_content: '思考…', _provider: { protocol: 'openai', model: 'm' }, tool_calls: batch[0]!.role === 'assistant' ? batch[0]!.tool_calls : [] },
        { ...batch[1]!, _error: true },
        { role: 'user', content: 'x', _meta: { kind: 'tool_images' } },
      ] as Message[];
      await store.commit('uni', [{ kind: 'reset', messages: history }], info.checkpointSeq);
      const exported = JSON.parse(JSON.stringify(await exportSession(store, 'uni')));
      const imported = await importSession(store, exported);
      expect(imported.title).toBe(title);
      expect(imported.createdAt).toBe(info.createdAt);
      expect((await store.load(imported.id)).messages).toEqual(history);
    });

    it('refuses an import from another app or a newer i with a code and what to do, adding nothing', async () => {
      const store = await fresh();
      for (const foreign of [[{ role: 'user', content: 'hi' }], { title: 'chat', mapping: {} }, null, 'text']) {
        await expect(importSession(store, foreign)).rejects.toMatchObject({ code: 'E_SESSION_IMPORT_INVALID', message: expect.stringContaining('another app') });
      }
      await expect(importSession(store, { format: 'i-session', version: 2, title: 't', messages: [], tags: [] })).rejects.toMatchObject({ code: 'E_SESSION_IMPORT_VERSION' });
      expect(await store.list()).toEqual([]);
    });

    it('refuses a title longer than an export can carry, keeping the old one', async () => {
      const store = await fresh();
      await store.create({ title: 'short', id: 'long' });
      await expect(store.rename('long', 'x'.repeat(501))).rejects.toMatchObject({ code: 'E_SESSION_TITLE_INVALID' });
      await expect(store.create({ title: 'x'.repeat(501) })).rejects.toMatchObject({ code: 'E_SESSION_TITLE_INVALID' });
      expect((await store.get('long'))?.title).toBe('short');
      await store.rename('long', 'y'.repeat(500));
      await importSession(store, await exportSession(store, 'long'));
    });

    it('reports a commit to a session deleted meanwhile as E_SESSION_GONE', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'g', id: 'g' });
      await store.delete('g');
      await expect(store.commit('g', [{ kind: 'message', message: user('x') }], info.checkpointSeq)).rejects.toMatchObject({ code: 'E_SESSION_GONE' });
    });

    it('forks from a message, extending a cut inside a tool batch to its results', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'src', id: 'src' });
      const history = [sys, user('q'), ...batch, { role: 'assistant', content: 'a' } as Message, user('more')];
      await store.commit('src', [{ kind: 'reset', messages: history }], info.checkpointSeq);
      const fork = await forkSession(store, 'src', 2);
      expect(fork.forkedFrom).toEqual({ sessionId: 'src', messageIndex: 2 });
      expect((await store.load(fork.id)).messages).toEqual(history.slice(0, 4));
      const early = await forkSession(store, 'src', 1, 'early');
      expect((await store.load(early.id)).messages).toEqual(history.slice(0, 2));
      expect((await store.load('src')).messages).toEqual(history);
      expect(sessionToMarkdown('src', history)).toContain('**Tool call** `read` (c1)');
    });
  });
}
