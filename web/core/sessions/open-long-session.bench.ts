// npm run bench (issue 15): opening a session whose log holds 10,000 messages — tool results carrying their whole
// output in `_full_output`, folded by a compaction every ~100 messages, so the history the model and the chat see
// is ~100 messages — vs opening a 100-message session. Both stores: the file store (headless) and the IndexedDB
// store (fake-indexeddb in Node). `load` replays from the last committed `reset` on, so the folded part of the log
// is not read; the folded originals are read on demand (foldedMessages). Target ≤ 5.
import 'fake-indexeddb/auto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { compare } from '../../../scripts/bench-kit';
import type { Message } from '../contracts/messages';
import { openHarnessDb } from '../storage';
import { createIdbSessionStore } from './idb-store';
import { createFileSessionStore } from './node-file-store';
import type { SessionEntry, SessionStore } from './types';

const RUNS = 15;
const WARMUP = 3;
const FULL = 'export const value = 42; // a line of a long tool output\n'.repeat(40); // ~2.2 KB per result

/** Messages i0..i0+count-1 of a conversation: user / assistant call / bounded tool result with its full output. */
function messages(i0: number, count: number): Message[] {
  const out: Message[] = [];
  for (let i = i0; out.length < count; i++) {
    const k = i % 3;
    if (k === 0) out.push({ role: 'user', content: `Look at file ${i}.ts and explain it.` });
    else if (k === 1)
      out.push({
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"src/f${i}.ts"}` } },
        ],
      });
    else
      out.push({
        role: 'tool',
        tool_call_id: `c${i - 1}`,
        content: `${FULL.slice(0, 512)}\n[result truncated: 512 of ${FULL.length} bytes shown. Read the rest with read_result {"ref":"cr1.x${i}","offset":512}]`,
        _full_output: FULL,
      });
  }
  return out;
}

const sys: Message = { role: 'system', content: 'You are i.' };
const summary = (n: number): Message => ({
  role: 'user',
  content: `Summary of the earlier conversation:\npart ${n}`,
  _meta: {
    kind: 'compaction_summary',
    compaction: {
      id: `k${n}`,
      folded_messages: 99,
      folded_tool_results: 33,
      tokens_before: 9000,
      tokens_after: 400,
      manual: false,
      at: n,
    },
  },
});

/** A session whose log holds `total` message entries; with `every`, a compaction reset opens each run of `every` messages. */
async function seeded(store: SessionStore, id: string, total: number, every?: number): Promise<void> {
  let info = await store.create({ title: id, id });
  let written = 0;
  let round = 0;
  while (written < total) {
    const n = Math.min(every ?? total, total - written);
    const batch: SessionEntry[] = [];
    if (every) batch.push({ kind: 'reset', messages: [sys, summary(round)] });
    else batch.push({ kind: 'message', message: sys });
    for (const message of messages(written - (written % 3), n)) batch.push({ kind: 'message', message });
    info = await store.commit(id, batch, info.checkpointSeq);
    written += n;
    round++;
  }
}

async function bench(label: string, store: SessionStore): Promise<void> {
  await seeded(store, 'short', 99);
  await seeded(store, 'long', 9_900, 99);
  const [a, b] = [await store.load('short'), await store.load('long')];
  if (Math.abs(a.messages.length - b.messages.length) > 2)
    throw new Error(`bench sessions differ: ${a.messages.length} vs ${b.messages.length} messages`);
  await compare(
    `open a session, ${label}: 10,000-message log (compacted) vs 100 messages`,
    { label: '100 messages', run: () => store.load('short') },
    { label: '10,000-message log', run: () => store.load('long') },
    { runs: RUNS, warmup: WARMUP, target: 5 },
  );
}

it('opening a 10,000-message session with the full log vs a 100-message one', async () => {
  await bench(
    'file store',
    createFileSessionStore({ root: mkdtempSync(join(tmpdir(), 'i-bench-open-')), workspace: '/bench' }),
  );
  await bench('IndexedDB store', createIdbSessionStore(await openHarnessDb(`bench-open-${Date.now()}`), 'ws'));
});
