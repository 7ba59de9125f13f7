// What the session log keeps, for every SessionStore (joined from session-store-suite.ts): every message ever
// committed, including those a compaction folded and the whole text of bounded tool results, read back through a
// new store object over the same data (a reload, a new process); and the folded originals of each compaction.
import { describe, expect, it } from 'vitest';
import type { Message } from '../contracts/messages';
import type { CompactionInfo } from '../contracts/usage';
import { createCheckpointSink } from './checkpoint-sink';
import { foldedMessages } from './folded';
import { replayEntries } from './replay';
import type { SessionStore } from './types';

const sys: Message = { role: 'system', content: 'sys' };
const agentsMd: Message = { role: 'user', content: 'AGENTS.md: be brief', _meta: { kind: 'project_instructions' } };
const user = (text: string): Message => ({ role: 'user', content: text });
const answer = (text: string): Message => ({ role: 'assistant', content: text });
const FULL = 'line of a long tool output\n'.repeat(400);
const toolPair = (id: string): Message[] => [
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id, type: 'function', function: { name: 'read', arguments: '{"path":"big.txt"}' } }],
  },
  {
    role: 'tool',
    tool_call_id: id,
    content:
      'line of a long …\n[result truncated: 16 of 10800 bytes shown. Read the rest with read_result {"ref":"cr1.x","offset":16}]',
    _full_output: FULL,
  },
];
const summary = (id: string, folded: number): Message => {
  const compaction: CompactionInfo = {
    id,
    folded_messages: folded,
    folded_tool_results: 1,
    tokens_before: 900,
    tokens_after: 100,
    manual: false,
    at: 1,
  };
  return {
    role: 'user',
    content: `Summary of the earlier conversation:\n${id}`,
    _meta: { kind: 'compaction_summary', compaction },
  };
};

let n = 0;

/** How a suite gets stores (session-store-suite.ts and this file share it). */
export interface SuiteEnv {
  /** A fresh store for a workspace; the same `key` gives a store over the same underlying data. */
  store(workspace: string, key: string): Promise<SessionStore>;
  /** Damages committed entry `seq` of session `id` in the data behind `key`, the way that store's data breaks. */
  damageEntry(key: string, id: string, seq: number): Promise<void>;
}

export function sessionLogSuite(name: string, env: SuiteEnv): void {
  describe(`${name} session log`, () => {
    it('keeps every message before a compaction reset, with the whole tool output, for a new store object', async () => {
      const key = `log${n++}`;
      const store = await env.store('ws-a', key);
      const info = await store.create({ title: 'long', id: 'long' });
      const sink = createCheckpointSink(store, info, []);
      const before: Message[] = [sys, user('read big.txt'), ...toolPair('c1'), answer('It is long.'), user('and now?')];
      await sink.save(before);
      const compacted: Message[] = [sys, summary('A', 4), user('and now?')];
      await sink.save(compacted);

      const reopened = await env.store('ws-a', key);
      expect((await reopened.load('long')).messages).toEqual(compacted);
      const { entries, damage } = await reopened.loadIntact('long');
      expect(damage).toBeNull();
      expect(entries.slice(0, before.length)).toEqual(before.map((message) => ({ kind: 'message', message })));
      expect(entries.at(-1)).toEqual({ kind: 'reset', messages: compacted });
      const tool = replayEntries(entries.slice(0, before.length)).find((m) => m.role === 'tool');
      expect(tool).toMatchObject({ _full_output: FULL });
    });

    it('opens from the last reset without reading the folded part: damage there shows only when that part is read', async () => {
      const key = `log${n++}`;
      const store = await env.store('ws-a', key);
      const info = await store.create({ title: 'folded', id: 'folded' });
      const sink = createCheckpointSink(store, info, []);
      await sink.save([sys, user('one'), answer('a1'), user('two')]);
      const compacted: Message[] = [sys, summary('A', 2), user('two')];
      await sink.save(compacted);
      await sink.save([...compacted, answer('a2')]);
      await env.damageEntry(key, 'folded', 1);
      const reopened = await env.store('ws-a', key);
      expect((await reopened.load('folded')).messages).toEqual([...compacted, answer('a2')]);
      expect((await reopened.loadIntact('folded')).damage).toMatchObject({ code: 'E_SESSION_CORRUPT' });
      await expect(foldedMessages(reopened, 'folded', 'A')).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT' });
      // Damage after the reset is in the history itself: load refuses.
      await env.damageEntry(key, 'folded', 5);
      await expect((await env.store('ws-a', key)).load('folded')).rejects.toMatchObject({ code: 'E_SESSION_CORRUPT' });
    });

    it('gives back the originals of one compaction, then of a second one that folded the first summary', async () => {
      const key = `log${n++}`;
      const store = await env.store('ws-a', key);
      const info = await store.create({ title: 'twice', id: 'twice' });
      const sink = createCheckpointSink(store, info, []);
      const first: Message[] = [user('one'), ...toolPair('c1'), answer('a1'), user('two'), answer('a2')];
      await sink.save([sys, agentsMd, ...first, user('three')]);
      await sink.save([sys, agentsMd, summary('A', first.length), user('three')]);
      const second: Message[] = [summary('A', first.length), user('three'), answer('a3'), user('four')];
      await sink.save([sys, agentsMd, ...second, answer('a4')]);
      await sink.save([sys, agentsMd, summary('B', second.length), answer('a4'), user('five')]);

      const reopened = await env.store('ws-a', key);
      expect(await foldedMessages(reopened, 'twice', 'A')).toEqual(first);
      expect(await foldedMessages(reopened, 'twice', 'B')).toEqual(second);
      await expect(foldedMessages(reopened, 'twice', 'C')).rejects.toMatchObject({ code: 'E_COMPACTION_NOT_FOUND' });
    });
  });
}
