// What the page asks the Worker about cost and context (issue 15): the next request part by part, a session's and a
// workspace's totals over the whole log, the cache statistics, and the originals a compaction folded.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../contracts/messages';
import type { SessionEntry } from '../sessions';
import { updateGlobalSettings } from '../settings';
import type { StepUsage } from '../contracts/usage';
import { saveToolView } from '../app-agent/tool-view-settings';
import { run, setup } from './host-test-kit';
import { measuredMessages } from './usage-queries';

const usage = (input: number, output: number): StepUsage => ({
  input_tokens: input,
  output_tokens: output,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  reported: { input: true, output: true, cache: true },
  duration_ms: 5,
  protocol: 'openai',
  model: 'm',
});
const answer = (text: string, u: StepUsage): AssistantMessage => ({ role: 'assistant', content: text, _usage: u });

describe('totals over the session log', () => {
  it('count each model call once, including the ones a compaction folded and the answer saved inside a reset', () => {
    const user: Message = { role: 'user', content: 'hi' };
    const a1 = answer('one', usage(100, 10));
    const a2 = answer('two', usage(200, 20));
    const a3 = answer('three', usage(300, 30));
    const entries: SessionEntry[] = [
      { kind: 'message', message: user },
      { kind: 'message', message: a1 },
      { kind: 'message', message: user },
      { kind: 'message', message: a2 },
      // A compaction folds a1 (it leaves the history) and keeps a2; the step's answer a3 is saved inside the reset.
      {
        kind: 'reset',
        messages: [
          {
            role: 'user',
            content: 'Summary of the earlier conversation:\n…',
            _meta: { kind: 'compaction_summary', usage: usage(400, 40) },
          },
          structuredClone(a2),
          a3,
        ],
      },
      // A later reset keeps the summary again: its call is not counted twice.
      {
        kind: 'reset',
        messages: [
          {
            role: 'user',
            content: 'Summary of the earlier conversation:\n…',
            _meta: { kind: 'compaction_summary', usage: usage(400, 40) },
          },
          a3,
        ],
      },
    ];
    const counted = measuredMessages(entries);
    expect(counted.map((m) => [m.content, m._usage?.input_tokens])).toEqual([
      ['one', 100],
      ['two', 200],
      ['Summary of the earlier conversation:\n…', 400],
      ['three', 300],
    ]);
  });

  it('tell two calls with the same text apart by their usage, and skip messages without usage', () => {
    const entries: SessionEntry[] = [
      { kind: 'message', message: answer('ok', usage(10, 1)) },
      { kind: 'message', message: answer('ok', usage(11, 1)) },
      { kind: 'message', message: { role: 'assistant', content: 'old, unmeasured' } },
    ];
    expect(measuredMessages(entries)).toHaveLength(2);
  });
});

describe('the host answers the page about usage and context', () => {
  it('prices the session and the workspace from the global price table, with the cache statistics', async () => {
    const { db, tab } = await setup([
      { text: 'first', usage: { input: 1000, output: 100 } },
      { text: 'second', usage: { input: 3000, output: 200 } },
      { text: 'other session', usage: { input: 500, output: 50 } },
    ]);
    const { host } = await tab();
    const one = await run(host, null, 'hello');
    const id = one.started.session.id;
    await run(host, id, 'again');
    await run(host, null, 'elsewhere');
    // No prices: tokens are counted, cost is unknown (never a guess).
    const unpriced = await host.sessionUsage('ws-1', id);
    expect(unpriced).toMatchObject({ steps: 2, input_tokens: 4000, output_tokens: 300, cost: null, unpriced_steps: 2 });
    await updateGlobalSettings(db, {
      prices: { as_of: '2026-12-01', prices: [{ model: 'scripted', input: 2, output: 10 }] },
    });
    const priced = await host.sessionUsage('ws-1', id);
    expect(priced.cost).toBeCloseTo((4000 * 2 + 300 * 10) / 1e6, 10);
    const workspace = await host.workspaceUsage('ws-1');
    expect(workspace.totals).toMatchObject({ steps: 3, input_tokens: 4500, output_tokens: 350 });
    expect(workspace.sessions.map((s) => s.id)[0]).toBe(id);
    expect(workspace.sessions).toHaveLength(2);
    // The cache module (observe mode by default) recorded each request of the three turns.
    expect(workspace.cache?.report.prepared).toBe(3);
    expect(workspace.cache?.records).toHaveLength(3);
  });

  it('breaks the next request down: system prompt, AGENTS.md, tools, and the history once there is one', async () => {
    const { tab, dir } = await setup([{ text: 'noted', usage: { input: 900, output: 10 } }], {
      budget: { context_window: 32000 },
    });
    await writeFile(join(dir, 'AGENTS.md'), '# Rules\nAlways answer in haiku.\n'.repeat(20));
    const { host } = await tab();
    const fresh = await host.contextBreakdown('ws-1', null);
    const tokens = (kind: string, b = fresh) => b.parts.find((p) => p.kind === kind)?.tokens ?? 0;
    expect(tokens('system')).toBeGreaterThan(0);
    expect(tokens('instructions')).toBeGreaterThan(0);
    expect(tokens('tools:builtin')).toBeGreaterThan(0);
    expect(tokens('history')).toBe(0);
    expect(fresh.size.window).toBe(32000);
    expect(fresh.size.trigger).toBeGreaterThan(0);
    const turn = await run(host, null, 'Remember: '.repeat(200));
    const after = await host.contextBreakdown('ws-1', turn.started.session.id);
    expect(tokens('history', after)).toBeGreaterThan(tokens('history'));
    // The size itself is anchored on the provider's reported usage once there is an answer (not a byte estimate).
    expect(fresh.size.estimated).toBe(true);
  });

  it('counts only the tools the workspace lets the model see (Settings → Agent → Tools the agent sees)', async () => {
    const { db, tab } = await setup([], { budget: { context_window: 32000 } });
    await saveToolView(db, 'ws-1', { names: [], groups: ['files'] });
    const { host } = await tab();
    const breakdown = await host.contextBreakdown('ws-1', null);
    expect(breakdown.parts.find((p) => p.kind === 'tools:builtin')?.items).toBe(5);
  });
});
