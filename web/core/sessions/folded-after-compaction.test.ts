// foldedMessages against a compaction the real loop made (budget + compact modules, scripted model) and saved through
// a checkpoint sink into the file store: the originals it folded come back from the log, read by a new store object.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { MODEL } from '../agent/__fixtures__/harness';
import { memoryFs } from '../agent/__fixtures__/memory-fs';
import { scriptedModel } from '../agent/__fixtures__/scripted-stream';
import { runTurn } from '../agent/loop';
import { DEFAULT_APPROVAL } from '../approval';
import { HookPipeline } from '../hooks';
import { createBudgetModule, parseBudgetConfig } from '../modules/budget';
import { createCompactModule, parseCompactConfig } from '../modules/compact';
import type { Message } from '../contracts/messages';
import { ToolRegistry } from '../tools/registry';
import { createCheckpointSink } from './checkpoint-sink';
import { foldedMessages } from './folded';
import { createFileSessionStore } from './node-file-store';

const u = (t: string): Message => ({ role: 'user', content: t });
const a = (t: string): Message => ({ role: 'assistant', content: t });
const old: Message[] = [
  { role: 'system', content: 's' },
  u('y'.repeat(3000)),
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'x'.repeat(2000), _full_output: 'x'.repeat(9000) },
  a('noted'),
  u('q2'),
  a('a2'),
  u('k'.repeat(3000)),
  a('a3'),
];

it('gives back, from the log, the messages a compaction made by the loop folded', async () => {
  const root = mkdtempSync(join(tmpdir(), 'i-folded-'));
  const store = createFileSessionStore({ root, workspace: '/p' });
  const created = await store.create({ title: 't', id: 'long' });
  const info = await store.commit(
    'long',
    old.map((message) => ({ kind: 'message' as const, message })),
    created.checkpointSeq,
  );

  const hooks = new HookPipeline();
  const settings = parseBudgetConfig({ context_window: 10_000 }, 1000);
  hooks.register(createBudgetModule({ settings, endpoint: { protocol: 'openai', base_url: 'http://127.0.0.1:9/v1' } }));
  hooks.register(createCompactModule({ config: parseCompactConfig({ keep_recent: 4 }), budget: settings }));
  const model = scriptedModel([{ content: 'Goal: read a.ts.' }, { content: 'fine' }]);
  const stream = runTurn(
    { model: { ...MODEL, budget: settings }, history: [...old], content: 'next' },
    {
      stream: model.stream,
      tools: new ToolRegistry(),
      hooks,
      approval: DEFAULT_APPROVAL,
      fs: memoryFs(),
      workspaceId: 'ws',
      session: createCheckpointSink(store, info, old),
    },
  );
  let id: string | undefined;
  let folded = 0;
  for await (const e of stream) {
    if (e.type === 'compacted') ({ id, folded_messages: folded } = e.compaction);
  }
  expect((await stream.result()).stopReason).toBe('stop');
  expect(id).toBeDefined();

  const originals = await foldedMessages(createFileSessionStore({ root, workspace: '/p' }), 'long', id!);
  expect(originals).toHaveLength(folded);
  expect(originals).toEqual(old.slice(1, 1 + folded));
});
