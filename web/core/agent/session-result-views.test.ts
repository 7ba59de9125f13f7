// Nothing a tool returned is lost, and references last the session (seed 002; issue 15): a long result reaches the
// model as a preview plus a reference, the saved tool message keeps the whole text in `_full_output`, and the
// reference reads in a later turn through new store objects over the same data (a new `i` process over the session
// folder; a reload over the app's IndexedDB), but not from another session.
import 'fake-indexeddb/auto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL } from '../approval';
import { HookPipeline } from '../hooks';
import type { Message, ToolMessage } from '../contracts/messages';
import { createIdbSessionContentStore, type ContentStore } from '../context';
import { createIdbSessionStore } from '../sessions/idb-store';
import { createFileContentStore } from '../sessions/node-content-store';
import { createFileSessionStore } from '../sessions/node-file-store';
import type { SessionStore } from '../sessions/types';
import { openHarnessDb, type HarnessDb } from '../storage';
import { ToolRegistry } from '../tools/registry';
import type { ToolDefinition } from '../contracts/tools';
import { MODEL, runScripted } from './__fixtures__/harness';
import { memoryFs } from './__fixtures__/memory-fs';
import { call, scriptedModel, type Reply } from './__fixtures__/scripted-stream';
import { runTurn } from './loop';
import { openSessionForTurn } from './open-session';
import { SESSION_RESULT_STORE_LIMITS, sessionResultViews } from './result-views';

const BIG = Array.from({ length: 800 }, (_, i) => `line ${i}: 工具数据`).join('\n');
const bigTool: ToolDefinition = {
  schema: {
    name: 'big',
    description: 'A long output',
    parameters: { type: 'object', properties: { short: { type: 'boolean' } }, additionalProperties: false },
  },
  approval: 'free',
  external: false,
  execute: async (args) => ({ output: args.short ? 'short' : BIG }),
};

/** Where a session and its stored results live: a folder (headless `i`) or the app's IndexedDB database. */
interface Backend {
  sessions(): SessionStore;
  results(sessionId: string): ContentStore;
}
const folder = (): Backend => {
  const root = mkdtempSync(join(tmpdir(), 'i-views-'));
  return {
    sessions: () => createFileSessionStore({ root, workspace: '/ws' }),
    results: (sessionId) =>
      createFileContentStore({ ...SESSION_RESULT_STORE_LIMITS, dir: join(root, sessionId, 'content') }),
  };
};
let dbs = 0;
const database = async (): Promise<Backend> => {
  const db: HarnessDb = await openHarnessDb(`views-${Date.now()}-${dbs++}`);
  return {
    sessions: () => createIdbSessionStore(db, 'ws'),
    results: (sessionId) =>
      createIdbSessionContentStore(db, { workspaceId: 'ws', sessionId, ...SESSION_RESULT_STORE_LIMITS }),
  };
};

/** One turn the way the hosts run it: new store objects each time, as a new process or a reload makes them. */
async function turn(backend: Backend, sessionId: string, replies: Reply[]): Promise<Message[]> {
  const sessions = backend.sessions();
  const opened = await openSessionForTurn(sessions, sessionId, new HookPipeline(), new AbortController().signal, {
    createTitle: 't',
  });
  const views = sessionResultViews({ store: backend.results(opened.info.id), sessionId: opened.info.id });
  const tools = new ToolRegistry();
  tools.register(bigTool);
  tools.register(views.tool);
  const model = scriptedModel(replies);
  const result = await runTurn(
    { model: MODEL, history: opened.history, content: 'go' },
    {
      stream: model.stream,
      tools,
      hooks: new HookPipeline(),
      approval: DEFAULT_APPROVAL,
      fs: memoryFs(),
      workspaceId: 'ws',
      results: views,
      session: opened.sink,
    },
  ).result();
  expect(result.stopReason).toBe('stop');
  return (await sessions.load(opened.info.id)).messages;
}

const toolMessage = (messages: Message[], id: string) =>
  messages.find((m): m is ToolMessage => m.role === 'tool' && m.tool_call_id === id)!;

describe.each([
  ['session folder (headless)', async () => folder()],
  ['IndexedDB (app)', database],
])('session-scoped result views, %s', (_name, backendOf) => {
  it('keeps the whole output in the log while the model sees a preview and a reference; short results stay as they are', async () => {
    const backend = await backendOf();
    const log = await turn(backend, 's1', [
      { tool_calls: [call('c1', 'big', {}), call('c2', 'big', { short: true })] },
      { content: 'done' },
    ]);
    const long = toolMessage(log, 'c1');
    expect(long.content).toMatch(/\[result truncated: \d+ of \d+ bytes shown\. Read the rest with read_result \{/);
    expect(long.content.length).toBeLessThan(1000);
    expect(long._full_output).toBe(BIG);
    const short = toolMessage(log, 'c2');
    expect(short.content).toBe('short');
    expect(short).not.toHaveProperty('_full_output');
  });

  it('reads a reference in a later turn and a new process, and refuses it in another session', async () => {
    const backend = await backendOf();
    const first = await turn(backend, 's1', [{ tool_calls: [call('c1', 'big', {})] }, { content: 'done' }]);
    const args = JSON.parse(/read_result (\{.*\})\]$/.exec(toolMessage(first, 'c1').content)![1]!) as {
      ref: string;
      offset: number;
    };
    const later = await turn(backend, 's1', [
      { tool_calls: [call('c1', 'read_result', args)] },
      { content: 'read it' },
    ]);
    const page = toolMessage(later.slice(first.length), 'c1');
    expect(page._error).toBeUndefined();
    expect(
      page.content.startsWith(
        Buffer.from(BIG)
          .subarray(args.offset, args.offset + 100)
          .toString('utf8')
          .slice(0, 20),
      ),
    ).toBe(true);
    expect(page.content).toMatch(/\[bytes \d+–\d+ of \d+; next: read_result/);

    const other = await turn(backend, 's2', [{ tool_calls: [call('c9', 'read_result', args)] }, { content: 'no' }]);
    expect(toolMessage(other, 'c9').content).toMatch(/^Error E_CONTENT_SCOPE:/);
  });

  it('keeps results of different turns with the same tool call id apart', async () => {
    const backend = await backendOf();
    await turn(backend, 's1', [{ tool_calls: [call('c1', 'big', {})] }, { content: 'done' }]);
    const second = await turn(backend, 's1', [{ tool_calls: [call('c1', 'big', {})] }, { content: 'done' }]);
    const views = second
      .filter((m): m is ToolMessage => m.role === 'tool')
      .map((m) => /read_result (\{.*\})\]$/.exec(m.content)?.[1]);
    expect(views).toHaveLength(2);
    expect(views[0]).toBeDefined();
    expect(views[1]).toBeDefined();
    expect(views[0]).not.toBe(views[1]);
  });
});

describe('whole output kept when the context budget cuts a result', () => {
  it('keeps the whole output in _full_output when no content store is set and the budget shortens the result', async () => {
    const budget = {
      context_window: 20_000,
      max_tokens: 1000,
      safety: 0.02,
      tool_ratio: 0.02,
      threshold: 0.8,
      image_tokens: 1600,
    };
    const { saves } = await runScripted([{ tool_calls: [call('c1', 'big', {})] }, { content: 'done' }], {
      tools: [bigTool],
      model: { budget },
    });
    const tool = toolMessage(saves.at(-1)!, 'c1');
    expect(tool.content).toMatch(/\[output truncated: \d+ of \d+ bytes left out by the context budget\]$/);
    expect(tool._full_output).toBe(BIG);
  });
});
