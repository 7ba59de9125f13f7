import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../contracts/messages';
import { createCheckpointSink } from './checkpoint-sink';
import { createFileSessionStore } from './node-file-store';
import type { SessionEntry, SessionStore } from './types';

const user = (text: string): Message => ({ role: 'user', content: text });
const assistant = (text: string): Message => ({ role: 'assistant', content: text });

async function recordingStore() {
  const store = createFileSessionStore({ root: mkdtempSync(join(tmpdir(), 'i-sink-')), workspace: '/p' });
  const commits: SessionEntry['kind'][][] = [];
  const recording: SessionStore = Object.assign(Object.create(store) as SessionStore, {
    commit: (id: string, entries: SessionEntry[], expected: number) => (
      commits.push(entries.map((e) => e.kind)),
      store.commit(id, entries, expected)
    ),
  });
  return { store: recording, commits, info: await store.create({ title: 't', id: 's1' }) };
}

/** What a before_save hook gives back: the same messages as fresh objects (a bridge hook's JSON round trip), keys reordered. */
const hookCopy = (messages: Message[]): Message[] =>
  (JSON.parse(JSON.stringify(messages)) as Record<string, unknown>[]).map(
    (m) => Object.fromEntries(Object.entries(m).reverse()) as unknown as Message,
  );

describe('checkpoint sink', () => {
  it('appends only the new messages when a before_save hook returns cloned-but-equal messages', async () => {
    const { store, commits, info } = await recordingStore();
    const sink = createCheckpointSink(store, info, []);
    const history: Message[] = [];
    for (let turn = 0; turn < 4; turn++) {
      history.push(user(`q${turn}`), assistant(`a${turn}`));
      await sink.save(hookCopy(history));
    }
    expect(commits).toEqual([
      ['message', 'message'],
      ['message', 'message'],
      ['message', 'message'],
      ['message', 'message'],
    ]);
    expect((await store.load('s1')).messages).toEqual(history);
  });

  it('still writes a reset when the saved prefix really changed', async () => {
    const { store, commits, info } = await recordingStore();
    const sink = createCheckpointSink(store, info, []);
    await sink.save([user('one'), assistant('two')]);
    await sink.save([user('one (redacted)'), assistant('two'), user('three')]);
    expect(commits).toEqual([['message', 'message'], ['reset']]);
    expect((await store.load('s1')).messages).toEqual([user('one (redacted)'), assistant('two'), user('three')]);
  });
});
