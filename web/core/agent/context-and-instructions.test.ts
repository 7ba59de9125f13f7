// What the loop puts in front of the model: system prompt → AGENTS.md → history, and the memory/skills context as
// an append-only snapshot plus deltas (seed 000 §7, §9). Asserted on the exact message lists the model received.
import { describe, expect, it } from 'vitest';
import { HookPipeline } from '../hooks';
import {
  createInMemoryMemoryStore,
  desiredItems,
  memoryTools,
  projectInstructionsMessage,
  resolveSystemPrompt,
  snapshotMessage,
  type ContextState,
} from '../modules';
import type { Message } from '../contracts/messages';
import type { CompactionInfo } from '../contracts/usage';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';
import { nativeRequestHistory } from './native-marks';

const AGENTS = '# Conventions\nUse tabs.\n';
const SKILLS = [{ name: 'deploy', description: 'How to deploy', source: '.agents/skills/deploy/SKILL.md' }];
const sentAt = (run: Awaited<ReturnType<typeof runScripted>>, i: number): Message[] =>
  run.model.calls[i]!.input.history;

describe('system prompt, AGENTS.md and context injection', () => {
  it('sends system prompt → AGENTS.md → snapshot → user, then only a delta when memory changed, and nothing when it did not', async () => {
    const memory = createInMemoryMemoryStore();
    await memory.update('ws', () => ({ next: { version: 1, entries: { style: 'tabs' } }, result: null }));
    let reads = 0;
    const context = async (): Promise<ContextState> => (
      reads++,
      { memory: (await memory.read('ws')).entries, skills: SKILLS }
    );
    const run = await runScripted(
      [
        { tool_calls: [call('c1', 'memory_set', { key: 'lang', value: 'TypeScript' })], finish_reason: 'tool_calls' },
        { tool_calls: [call('c2', 'memory_get', {})], finish_reason: 'tool_calls' },
        { content: 'done' },
      ],
      { files: { 'AGENTS.md': AGENTS }, tools: memoryTools(memory), approval: { mode: 'auto' }, context },
    );
    expect(run.result.stopReason).toBe('stop');

    const head: Message[] = [
      { role: 'system', content: resolveSystemPrompt({ workspace: 'mem' }) },
      projectInstructionsMessage(AGENTS)!,
      snapshotMessage(desiredItems({ memory: { style: 'tabs' }, skills: SKILLS })),
      { role: 'user', content: 'go' },
    ];
    expect(sentAt(run, 0)).toEqual(head);
    expect(String(head[0]!.content)).toContain('project folder "mem"');
    expect(projectInstructionsMessage(AGENTS)!._meta).toMatchObject({
      kind: 'project_instructions',
      workspace_content: true,
      untrusted: true,
    });

    const second = sentAt(run, 1);
    expect(second.slice(0, head.length)).toEqual(head);
    expect(second.slice(head.length).map((m) => [m.role, m.role === 'user' ? m._meta?.kind : undefined])).toEqual([
      ['assistant', undefined],
      ['tool', undefined],
      ['user', 'context_delta'],
    ]);
    expect(second.at(-1)).toEqual({
      role: 'user',
      content: expect.stringContaining('Memory set:\n- lang: TypeScript') as string,
      _meta: { kind: 'context_delta', untrusted: true, upsert: { 'memory/lang': 'TypeScript' }, remove: [] },
    });

    const third = sentAt(run, 2);
    expect(third.slice(0, second.length)).toEqual(second);
    expect(third.slice(second.length).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(reads).toBe(3);
    // The saved history is what the model saw (tool results without their untrusted-data mark, which only the
    // request carries), plus its answer: the next turn rebuilds the view from it.
    expect(nativeRequestHistory(run.saves.at(-1)!)).toEqual([
      ...third,
      expect.objectContaining({ role: 'assistant', content: 'done' }),
    ]);
  });

  it('a resumed session keeps its system prompt and AGENTS.md as they were and adds no snapshot when nothing changed', async () => {
    const state: ContextState = { memory: { a: '1' } };
    const history: Message[] = [
      { role: 'system', content: 'old prompt' },
      snapshotMessage(desiredItems(state)),
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ];
    const run = await runScripted([{ content: 'ok' }], {
      history,
      files: { 'AGENTS.md': AGENTS },
      context: () => state,
      content: 'again',
    });
    expect(sentAt(run, 0)).toEqual([...history, { role: 'user', content: 'again' }]);
  });

  it('a module that became disabled is removed by a delta; without a context port nothing is injected', async () => {
    const history: Message[] = [
      { role: 'system', content: 's' },
      snapshotMessage(desiredItems({ memory: { a: '1' }, skills: SKILLS })),
    ];
    const run = await runScripted([{ content: 'ok' }], { history, context: () => ({ skills: SKILLS }) });
    expect(sentAt(run, 0).slice(2)).toEqual([
      expect.objectContaining({
        role: 'user',
        _meta: { kind: 'context_delta', untrusted: true, upsert: {}, remove: ['memory/a'] },
      }),
      { role: 'user', content: 'go' },
    ]);

    const plain = await runScripted([{ content: 'ok' }], { systemPrompt: 'Work in {{workspace}}.' });
    expect(sentAt(plain, 0)).toEqual([
      { role: 'system', content: 'Work in {{workspace}}.' },
      { role: 'user', content: 'go' },
    ]);
  });

  it('an AGENTS.md it cannot use is a warning and the turn goes on without it; a failing context read too', async () => {
    const run = await runScripted([{ content: 'ok' }], {
      files: { 'AGENTS.md': 'x'.repeat(256 * 1024 + 1) },
      context: () => {
        throw Object.assign(new Error('memory.json is corrupt'), { code: 'E_MEMORY_CORRUPT' });
      },
    });
    expect(run.result.stopReason).toBe('stop');
    expect(sentAt(run, 0).map((m) => m.role)).toEqual(['system', 'user']);
    const warnings = run.events.flatMap((e) => (e.type === 'warning' ? [e.error.code] : []));
    expect(warnings).toEqual(['E_AGENTS_MD_TOO_LARGE', 'E_MEMORY_CORRUPT']);
  });

  it('compaction keeps the system prompt and AGENTS.md and restores the snapshot the kept part lost', async () => {
    const budget = {
      context_window: 10_000,
      max_tokens: 1_000,
      safety: 0.02,
      tool_ratio: 0.02,
      threshold: 0.8,
      image_tokens: 1600,
    };
    const hooks = new HookPipeline();
    let committed: Message[] = [];
    hooks.register({
      name: 'compact',
      source: 'profile',
      events: ['compact_plan', 'before_compact', 'before_compact_commit'],
      handle: (e, d) => {
        if (e === 'compact_plan') return { ...(d as object), cut: 5 };
        if (e === 'before_compact') return { ...(d as object), summary: 'Earlier: a long log.' };
        committed = structuredClone((d as { messages: Message[] }).messages);
        return d;
      },
    });
    const state: ContextState = { memory: { a: '1' } };
    const instructions = projectInstructionsMessage(AGENTS)!;
    const snapshot = snapshotMessage(desiredItems(state));
    const history: Message[] = [
      { role: 'system', content: 's' },
      instructions,
      snapshot,
      { role: 'user', content: 'y'.repeat(9000) },
      { role: 'assistant', content: 'noted' },
      { role: 'user', content: 'and then' },
      { role: 'assistant', content: 'ok' },
    ];
    const run = await runScripted([{ content: 'fine' }], {
      history,
      content: 'next',
      model: { budget },
      hooks,
      context: () => state,
    });
    expect(run.result.stopReason).toBe('stop');
    const sent = sentAt(run, 0);
    // The summary's figures are final only after the commit hook (tokens_after counts what it committed).
    const info = sent[2]!.role === 'user' ? (sent[2]!._meta?.compaction as CompactionInfo) : undefined;
    expect(info).toMatchObject({
      folded_messages: 3,
      folded_tool_results: 0,
      manual: false,
      tokens_after: expect.any(Number) as number,
    });
    expect(info!.tokens_after).toBeGreaterThan(0);
    expect(info!.tokens_after).toBeLessThan(info!.tokens_before);
    expect(sent).toEqual(
      committed.map((m, i) => (i === 2 ? { ...m, _meta: { kind: 'compaction_summary', compaction: info } } : m)),
    );
    expect(sent).toEqual([
      { role: 'system', content: 's' },
      instructions,
      expect.objectContaining({
        role: 'user',
        content: expect.stringContaining('Earlier: a long log.') as string,
        _meta: expect.objectContaining({ kind: 'compaction_summary' }) as object,
      }),
      snapshot,
      { role: 'user', content: 'and then' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'next' },
    ]);
  });
});
