// One behaviour suite every SessionStore implementation joins (file store in Node, IndexedDB store).
import { describe, expect, it } from 'vitest';
import type { Message } from '../contracts/messages';
import { createCheckpointSink } from './checkpoint-sink';
import { sessionLogSuite } from './log-suite';
import { recoverSession } from './recover';
import { exportSession, forkSession, importSession, sessionToMarkdown } from './transfer';

export type { SuiteEnv } from './log-suite';
import type { SuiteEnv } from './log-suite';

const user = (text: string): Message => ({ role: 'user', content: text });
const sys: Message = { role: 'system', content: 'sys' };
const batch: Message[] = [
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'AAA' },
];

let n = 0;
export function sessionStoreSuite(name: string, env: SuiteEnv): void {
  describe(`${name} session store`, () => {
    const fresh = () => env.store('ws-a', `k${n++}`);
    const freshWithKey = async () => {
      const key = `k${n++}`;
      return { key, store: await env.store('ws-a', key) };
    };

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
      await expect(
        store.commit('c', [{ kind: 'message', message: user('y') }], info.checkpointSeq),
      ).rejects.toMatchObject({ code: 'E_SESSION_CONFLICT' });
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
      await expect(b.commit('mine', [{ kind: 'message', message: user('x') }], -1)).rejects.toMatchObject({
        code: 'E_SESSION_WORKSPACE_MISMATCH',
      });
    });

    it('exports JSON that imports back as an equal new session, and refuses a malformed import', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'exp', id: 'exp' });
      await store.commit(
        'exp',
        [sys, user('q'), ...batch].map((message) => ({ kind: 'message' as const, message })),
        info.checkpointSeq,
      );
      const exported = JSON.parse(JSON.stringify(await exportSession(store, 'exp')));
      const imported = await importSession(store, exported);
      expect((await store.load(imported.id)).messages).toEqual([sys, user('q'), ...batch]);
      await expect(importSession(store, { ...exported, version: 99 })).rejects.toMatchObject({
        code: 'E_SESSION_IMPORT_VERSION',
        message: expect.stringContaining('newer i'),
      });
      await expect(importSession(store, { ...exported, messages: [batch[1]] })).rejects.toMatchObject({
        code: 'E_SESSION_IMPORT_INVALID',
      });
      await expect(importSession(store, { ...exported, extra: 1 })).rejects.toMatchObject({
        code: 'E_SESSION_IMPORT_INVALID',
      });
    });

    it('round-trips an export with unicode, images and the creation time, dropping host-only fields on import', async () => {
      const store = await fresh();
      const title = 'Résumé 会话 🙂 — שלום';
      const info = await store.create({ title, id: 'uni' });
      const history = [
        sys,
        {
          role: 'user',
          content: [
            { type: 'text', text: '看图 🖼️' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          reasoning_content: '思考…',
          _provider: { protocol: 'openai', model: 'm' },
          tool_calls: batch[0]!.role === 'assistant' ? batch[0]!.tool_calls : [],
        },
        { ...batch[1]!, _error: true },
        { role: 'user', content: 'x', _meta: { kind: 'tool_images' } },
      ] as Message[];
      await store.commit('uni', [{ kind: 'reset', messages: history }], info.checkpointSeq);
      const exported = JSON.parse(JSON.stringify(await exportSession(store, 'uni')));
      const imported = await importSession(store, exported);
      expect(imported.title).toBe(title);
      expect(imported.createdAt).toBe(info.createdAt);
      // Host replay/provenance fields do not come in with an import (transfer.ts); the tool-images marker does.
      const { _provider: _p, ...assistant } = history[2] as Message & { _provider?: unknown };
      const { _error: _e, ...result } = history[3] as Message & { _error?: unknown };
      expect((await store.load(imported.id)).messages).toEqual([history[0], history[1], assistant, result, history[4]]);
    });

    it('refuses an import from another app or a newer i with a code and what to do, adding nothing', async () => {
      const store = await fresh();
      for (const foreign of [[{ role: 'user', content: 'hi' }], { title: 'chat', mapping: {} }, null, 'text']) {
        await expect(importSession(store, foreign)).rejects.toMatchObject({
          code: 'E_SESSION_IMPORT_INVALID',
          message: expect.stringContaining('another app'),
        });
      }
      await expect(
        importSession(store, { format: 'i-session', version: 2, title: 't', messages: [], tags: [] }),
      ).rejects.toMatchObject({ code: 'E_SESSION_IMPORT_VERSION' });
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
      await expect(
        store.commit('g', [{ kind: 'message', message: user('x') }], info.checkpointSeq),
      ).rejects.toMatchObject({ code: 'E_SESSION_GONE' });
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

    it('names forks of one conversation apart: (fork), (fork 2), (fork 3), counting forks of a fork with their siblings', async () => {
      const store = await fresh();
      const info = await store.create({ title: 'Story', id: 'story' });
      await store.commit('story', [{ kind: 'reset', messages: [sys, user('q')] }], info.checkpointSeq);
      const first = await forkSession(store, 'story', 1);
      const second = await forkSession(store, 'story', 1);
      const ofFork = await forkSession(store, first.id, 1);
      expect([first.title, second.title, ofFork.title]).toEqual(['Story (fork)', 'Story (fork 2)', 'Story (fork 3)']);
    });

    it('forks a session whose title is as long as a title may be, shortening the copy’s title', async () => {
      const store = await fresh();
      const long = `${'t'.repeat(492)}😀${'t'.repeat(6)}`; // 500 UTF-16 units; the cut falls inside the emoji
      const info = await store.create({ title: long, id: 'long' });
      await store.commit('long', [{ kind: 'reset', messages: [sys, user('q')] }], info.checkpointSeq);
      const fork = await forkSession(store, 'long', 1);
      expect(fork.title.length).toBeLessThanOrEqual(500);
      expect(fork.title).toBe(`${'t'.repeat(492)} (fork)`);
      expect((await store.load(fork.id)).messages).toEqual([sys, user('q')]);
    });

    it('recovers the intact part of a damaged session into a new session, never a half batch, leaving the damaged one as it was', async () => {
      const { key, store } = await freshWithKey();
      const info = await store.create({ title: 'Broken 会话', id: 'broken' });
      const half: Message[] = [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'c2', type: 'function', function: { name: 'read', arguments: '{}' } },
            { id: 'c3', type: 'function', function: { name: 'read', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'c2', content: 'BBB' },
        { role: 'tool', tool_call_id: 'c3', content: 'CCC' },
      ];
      const intactPart = [sys, user('q'), ...batch, { role: 'assistant', content: 'a' } as Message, user('more')];
      // Entry 0 is a reset (a compaction), then one entry per message; entry 7 (the result c3) gets damaged.
      await store.commit(
        'broken',
        [
          { kind: 'reset', messages: [sys, user('q')] },
          ...[...intactPart.slice(2), ...half, { role: 'assistant', content: 'end' } as Message].map((message) => ({
            kind: 'message' as const,
            message,
          })),
        ],
        info.checkpointSeq,
      );
      await env.damageEntry(key, 'broken', 7);
      const refusal = await store.load('broken').catch((e: unknown) => e);
      expect(refusal).toMatchObject({ code: 'E_SESSION_CORRUPT', data: { intactEntries: 7 } });
      const before = await store.loadIntact('broken');
      expect(before.entries).toHaveLength(7);
      expect(before.damage).toMatchObject({ code: 'E_SESSION_CORRUPT', message: (refusal as Error).message });

      const recovered = await recoverSession(store, 'broken');
      expect(recovered).toMatchObject({ kept: 6, cut: 2, intactEntries: 7, committedEntries: 9 });
      expect(recovered.info.title).toBe('Broken 会话 (recovered)');
      expect(recovered.info.id).not.toBe('broken');
      expect((await store.load(recovered.info.id)).messages).toEqual(intactPart);
      // The damaged session is only read: it is refused the same way, and can still be deleted.
      await expect(store.load('broken')).rejects.toMatchObject({
        code: 'E_SESSION_CORRUPT',
        message: (refusal as Error).message,
      });
      expect(await store.loadIntact('broken')).toEqual(before);
      expect((await store.list()).map((s) => s.id).sort()).toEqual(['broken', recovered.info.id].sort());
      // A second recovery under a chosen name (the file store's session name) is another new session.
      const named = await recoverSession(store, 'broken', { newId: 'rescued', title: 'mine' });
      expect(named.info).toMatchObject({ id: 'rescued', title: 'mine' });
      await expect(recoverSession(store, 'broken', { newId: 'rescued' })).rejects.toMatchObject({
        code: 'E_SESSION_EXISTS',
      });
      await store.delete('broken');
      expect((await store.load('rescued')).messages).toEqual(intactPart);
    });

    it('refuses to recover a session that is not damaged, or one with nothing intact, creating nothing', async () => {
      const { key, store } = await freshWithKey();
      const info = await store.create({ title: 'fine', id: 'fine' });
      await store.commit(
        'fine',
        [sys, user('q')].map((message) => ({ kind: 'message' as const, message })),
        info.checkpointSeq,
      );
      await expect(recoverSession(store, 'fine')).rejects.toMatchObject({
        code: 'E_SESSION_NOT_DAMAGED',
        message: expect.stringContaining('Open it as it is'),
      });
      expect((await store.loadIntact('fine')).damage).toBeNull();
      const gone = await store.create({ title: 'gone', id: 'gone' });
      await store.commit(
        'gone',
        [batch[0]!, batch[1]!, user('x')].map((message) => ({ kind: 'message' as const, message })),
        gone.checkpointSeq,
      );
      await env.damageEntry(key, 'gone', 1);
      // Entry 0 is intact but is a tool call without its result: nothing consistent is left.
      await expect(recoverSession(store, 'gone')).rejects.toMatchObject({
        code: 'E_SESSION_NOTHING_INTACT',
        data: { intactEntries: 1 },
      });
      await env.damageEntry(key, 'gone', 0);
      await expect(recoverSession(store, 'gone')).rejects.toMatchObject({
        code: 'E_SESSION_NOTHING_INTACT',
        message: expect.stringContaining('first entry is already damaged'),
      });
      expect((await store.list()).map((s) => s.id).sort()).toEqual(['fine', 'gone']);
    });
  });
  sessionLogSuite(name, env);
}
