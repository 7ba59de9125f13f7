// npm run bench: (1) checkpoint cost per turn in a 1,000-entry session vs a 10-entry one, for the file store
// (headless) and the IndexedDB store (fake-indexeddb in Node; the browser's IndexedDB has the same shape of work):
// a commit appends only the turn's new entries and moves the pointer, so the ratio should stay about 1.
// (2) the agent loop's own cost per step, excluding the model: a turn of tool steps against an instant scripted
// model, compared with consuming the same model streams alone.
import 'fake-indexeddb/auto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { compare, fmt, report } from '../../../scripts/bench-kit';
import { scriptedModel, call } from '../agent/__fixtures__/scripted-stream';
import { memoryFs } from '../agent/__fixtures__/memory-fs';
import { readTool } from '../agent/__fixtures__/tools';
import { runTurn } from '../agent/loop';
import { DEFAULT_APPROVAL } from '../approval';
import { HookPipeline } from '../hooks';
import type { Message } from '../contracts/messages';
import { openHarnessDb } from '../storage';
import { ToolRegistry } from '../tools/registry';
import { createCheckpointSink } from './checkpoint-sink';
import { createIdbSessionStore } from './idb-store';
import { createFileSessionStore } from './node-file-store';
import type { SessionStore } from './types';

const RUNS = 15;
const WARMUP = 3;

/** A realistic history of `n` messages: user/assistant-with-call/tool result triples of a few hundred bytes. */
function history(n: number): Message[] {
  const out: Message[] = [{ role: 'system', content: 'You are i.' }];
  let i = 0;
  while (out.length < n) {
    out.push({ role: 'user', content: `Please look at file ${i}.ts and explain it. `.repeat(4) });
    out.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `c${i}`, type: 'function', function: { name: 'read', arguments: `{"path":"src/file${i}.ts"}` } },
      ],
    });
    out.push({ role: 'tool', tool_call_id: `c${i}`, content: 'export const x = 1;\n'.repeat(20) });
    i++;
  }
  return out.slice(0, n);
}

/** One turn's new messages: a tool step and the answer. */
function turnMessages(k: number): Message[] {
  return [
    { role: 'user', content: `Next question ${k}` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `t${k}`, type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }],
    },
    { role: 'tool', tool_call_id: `t${k}`, content: 'export const a = 2;\n'.repeat(20) },
    { role: 'assistant', content: 'It exports a constant.' },
  ];
}

async function prepared(store: SessionStore, size: number, count: number) {
  const sinks: Array<{ sink: ReturnType<typeof createCheckpointSink>; base: Message[] }> = [];
  const base = consistentPrefix(history(size));
  for (let i = 0; i < count; i++) {
    const info = await store.create({ title: `s${size}-${i}`, id: `s${size}-${i}` });
    const committed = await store.commit(
      info.id,
      base.map((message) => ({ kind: 'message' as const, message })),
      info.checkpointSeq,
    );
    sinks.push({ sink: createCheckpointSink(store, committed, base), base });
  }
  let next = 0;
  return async () => {
    const { sink, base: b } = sinks[next++]!;
    await sink.save([...b, ...turnMessages(next)]);
  };
}

/** Cuts a history so it does not end inside a tool batch. */
function consistentPrefix(messages: Message[]): Message[] {
  let end = messages.length;
  while (
    end > 0 &&
    messages[end - 1]!.role === 'assistant' &&
    (messages[end - 1] as { tool_calls?: unknown[] }).tool_calls
  )
    end--;
  return messages.slice(0, end);
}

it('checkpoint cost per turn: 1,000-entry session vs 10-entry session', async () => {
  const n = RUNS + WARMUP;
  const file = createFileSessionStore({ root: mkdtempSync(join(tmpdir(), 'i-bench-')), workspace: '/bench' });
  await compare(
    'checkpoint per turn, file store',
    { label: '10 entries', run: await prepared(file, 10, n) },
    { label: '1000 entries', run: await prepared(file, 1000, n) },
    { runs: RUNS, warmup: WARMUP, target: 1.5 },
  );
  const idb = createIdbSessionStore(await openHarnessDb(`bench-${Date.now()}`), 'ws');
  await compare(
    'checkpoint per turn, IndexedDB store',
    { label: '10 entries', run: await prepared(idb, 10, n) },
    { label: '1000 entries', run: await prepared(idb, 1000, n) },
    { runs: RUNS, warmup: WARMUP, target: 1.5 },
  );
});

it('agent loop overhead per step, excluding the model', async () => {
  const STEPS = 20;
  const script = () => [
    ...Array.from({ length: STEPS - 1 }, (_, i) => ({
      tool_calls: [call(`c${i}`, 'read', { path: 'a.txt' })],
      usage: { input_tokens: 1000 + i * 100, output_tokens: 20 },
    })),
    { content: 'done' },
  ];
  const tools = new ToolRegistry();
  tools.register(readTool());
  const fs = memoryFs({ 'a.txt': 'x'.repeat(200) });
  const modelOnly = async () => {
    const m = scriptedModel(script(), { record: false });
    const hooks = {};
    for (let i = 0; i < STEPS; i++) {
      const input = {
        version: 1 as const,
        protocol: 'openai',
        base_url: 'http://x',
        model: 'm',
        history: [],
        max_tokens: 1,
        compact: false,
        tools: [],
        plugin_tools: [],
        use_max_tokens: false,
        extra_body: {},
        stream: true,
      };
      for await (const _e of m.stream({ input, hooks, requestMeta: {}, signal: new AbortController().signal })) void _e;
    }
  };
  const loop = async () => {
    const m = scriptedModel(script(), { record: false });
    const result = await runTurn(
      {
        model: {
          protocol: 'openai',
          base_url: 'http://x',
          model: 'm',
          max_tokens: 1,
          use_max_tokens: false,
          extra_body: {},
          budget: {
            context_window: 1_000_000,
            max_tokens: 1000,
            safety: 0.02,
            tool_ratio: 0.02,
            threshold: 0.8,
            image_tokens: 1600,
          },
        },
        history: [],
        content: 'go',
      },
      { stream: m.stream, tools, hooks: new HookPipeline(), approval: DEFAULT_APPROVAL, fs, workspaceId: 'w' },
    ).result();
    if (result.stopReason !== 'stop') throw new Error(`bench turn ended with ${result.stopReason}`);
  };
  const r = await compare(
    'agent loop vs model streams alone (20 steps)',
    { label: 'model only', run: modelOnly },
    { label: 'loop', run: loop },
    { runs: RUNS, warmup: WARMUP },
  );
  report('agent loop overhead per step (excluding the model)', fmt((r.candidateMs - r.baselineMs) / STEPS), r.ratio);
});
