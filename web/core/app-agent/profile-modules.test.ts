// The app agent runs the same profile modules as headless `i`: memory tools over IndexedDB `memory` with the
// snapshot injected once, budget and compaction from the model config's `budget`, cache statistics in IndexedDB
// `metrics`, long tool results bounded into IndexedDB `content`. Node + fake-indexeddb + the scripted model server.
import 'fake-indexeddb/auto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from '../../../e2e/model-server';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { createIdbMemoryStore, createIdbStatsStore, DEFAULT_CACHE_CONFIG } from '../modules';
import { setSecret } from '../settings';
import { openHarnessDb, type HarnessDb } from '../storage';
import { saveModel } from './agent-settings';
import { createAppAgent, type AppAgent } from './create-app-agent';

let server: ModelServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

type Chat = Array<{ role: string; content: unknown }>;
const messages = (r: RecordedRequest) => (r.body as { messages: Chat }).messages;
const toolNames = (r: RecordedRequest) =>
  ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
const text = (r: RecordedRequest) =>
  messages(r)
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

async function setup(script: ScriptTurn[] | ((r: RecordedRequest, i: number) => ScriptTurn)) {
  server = await startModelServer({ script });
  dir = await mkdtemp(join(tmpdir(), 'app-profile-'));
  await writeFile(join(dir, 'notes.txt'), 'hello\n');
  const db: HarnessDb = await openHarnessDb(`app-profile-${Math.random()}`);
  await setSecret(db, 'TEST_KEY', 'sk-test');
  const fs = await createNodeWorkspaceFs({ root: dir, access: 'read-write' });
  return { db, fs };
}

const model = (budget?: Record<string, unknown>) => ({
  preset: null,
  config: {
    base_url: server!.baseUrl('openai'),
    model: 'scripted',
    api_key_env: 'TEST_KEY',
    max_tokens: 256,
    budget: { context_window: 1_000_000, ...budget },
  },
});

async function turn(agent: AppAgent, sessionId: string | null, content: string) {
  const t = await agent.startTurn({ sessionId, content, signal: new AbortController().signal });
  for await (const _ of t.events);
  return { session: t.session.id, result: await t.events.result() };
}

describe('the app agent with the profile modules', () => {
  it('offers the memory tools and injects the stored memory once across steps', async () => {
    const { db, fs } = await setup([
      { toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
      { text: 'done' },
    ]);
    await saveModel(db, null, model());
    await createIdbMemoryStore(db).update('ws-1', (m) => ({
      next: { ...m, entries: { colour: 'MEMO-blue-is-preferred' } },
      result: null,
    }));
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, plugins: null, bridge: null });
    const { result } = await turn(agent, null, 'hi');
    expect(result.stopReason).toBe('stop');
    expect(toolNames(server!.requests[0]!)).toEqual(
      expect.arrayContaining(['memory_get', 'memory_set', 'skill_load', 'read_result']),
    );
    for (const r of server!.requests) expect(count(text(r), 'MEMO-blue-is-preferred')).toBe(1);
    // Cache statistics (observe) went to IndexedDB `metrics` for this workspace.
    const stats = await createIdbStatsStore(db, {
      workspaceId: 'ws-1',
      namespace: DEFAULT_CACHE_CONFIG.namespace,
    }).read();
    expect(stats.totals).toMatchObject({ prepared: 2, observed: 2 });
  });

  it('compacts a long session with the budget of the saved model config', async () => {
    // Usage of about a token per byte of the messages: the budget module anchors on it across turns (and adds the
    // tool schemas on top itself, conservatively).
    const usage = (r: RecordedRequest) => ({ input: JSON.stringify(messages(r)).length, output: 2 });
    const { db, fs } = await setup((r) =>
      toolNames(r).length > 0 ? { text: 'ok', usage: usage(r) } : { text: 'SUMMARY-1', usage: usage(r) },
    );
    await saveModel(db, null, model());
    const agent = createAppAgent({ db, workspaceId: 'ws-1', fs, plugins: null, bridge: null });
    const probe = await turn(agent, null, 'probe');
    const base = server!.requests[0]!.rawBody.length;
    // Three ~1600-byte prompts cross a trigger 4000 bytes above the probe; two do not.
    await saveModel(db, null, model({ context_window: Math.ceil((base + 4000) / 0.8) }));
    const prompt = (n: number) => `PROMPT-${n} ${'x'.repeat(1600)}`;
    const first = await turn(agent, null, prompt(1));
    const second = await turn(agent, first.session, prompt(2));
    expect(second.result.error).toBeUndefined();
    expect(server!.requests).toHaveLength(3);
    const third = await turn(agent, first.session, prompt(3));
    expect(third.result.stopReason).toBe('stop');
    const [summary, next] = server!.requests.slice(3);
    expect(toolNames(summary!)).toEqual([]);
    expect(text(summary!)).toContain('PROMPT-1');
    expect(text(next!)).toContain('Summary of the earlier conversation:\nSUMMARY-1');
    expect(text(next!)).not.toContain('PROMPT-1');
    expect(messages(next!).at(-1)!.content).toBe(prompt(3));
    expect(probe.result.stopReason).toBe('stop');
  });

  it('refuses the over-budget request when the profile disables compaction', async () => {
    const { db, fs } = await setup(() => ({ text: 'ok' }));
    await saveModel(db, null, model({ context_window: 3000 }));
    const agent = createAppAgent({
      db,
      workspaceId: 'ws-1',
      fs,
      plugins: null,
      bridge: null,
      selection: { profile: 'standard', disabled: ['compact'] },
    });
    const { result } = await turn(agent, null, 'x'.repeat(4000));
    expect(result.stopReason).toBe('budget');
    expect(result.error?.code).toBe('E_CONTEXT_BUDGET');
    expect(server!.requests).toHaveLength(0);
  });
});
