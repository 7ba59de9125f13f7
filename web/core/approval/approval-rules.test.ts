// Approval rules (issue 16): parsing, the documented order (deny > ask > allow, the most specific rule recorded),
// globs on the normalised path, groups, and protected paths above every rule — through the real gate and loop.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/fs/node';
import { runScripted } from '../agent/__fixtures__/harness';
import { call } from '../agent/__fixtures__/scripted-stream';
import { protectWrites, type WorkspaceFs } from '../contracts/fs';
import { editTool, readTool, writeTool } from '../tools/builtin';
import type { ToolDefinition } from '../contracts/tools';
import { parseRules, RuleSet, scopedRules, type ApprovalRule } from './rules';
import type { ApprovalRequest } from './types';

const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  schema: { name, description: name, parameters: { type: 'object' } },
  approval: 'ask',
  external: false,
  execute: async () => ({ output: 'ok' }),
  ...extra,
});
const rules = (workspace: ApprovalRule[], global: ApprovalRule[] = []) => new RuleSet(scopedRules(workspace, global));

describe('approval rules: which rule decides', () => {
  const edit = tool('edit');
  it('lets a matching deny win over a more specific allow, and an ask over an allow', () => {
    const set = rules([
      { decision: 'allow', tool: 'edit', path: 'secrets/public.txt' },
      { decision: 'deny', tool: 'group:writes', path: 'secrets/**' },
      { decision: 'allow', tool: 'edit', path: 'src/**' },
      { decision: 'ask', tool: '*', path: 'src/config/**' },
    ]);
    expect(set.decide(edit, 'secrets/public.txt')).toMatchObject({ decision: 'deny', tool: 'group:writes', index: 1 });
    expect(set.decide(edit, 'src/config/app.ts')).toMatchObject({ decision: 'ask', index: 3 });
    expect(set.decide(edit, 'src/main.ts')).toMatchObject({ decision: 'allow', index: 2 });
    expect(set.decide(edit, 'README.md')).toBeNull();
    // A path rule never matches a call that names no path.
    expect(set.decide(edit, undefined)).toBeNull();
  });

  it('records the most specific rule of the winning decision: exact tool over group over *, path over none, workspace over global', () => {
    const set = rules(
      [{ decision: 'allow', tool: 'group:writes', path: 'src/**' }],
      [
        { decision: 'allow', tool: '*' },
        { decision: 'allow', tool: 'edit', path: 'src/**' },
        { decision: 'allow', tool: 'edit', path: 'src/app/**' },
      ],
    );
    expect(set.decide(edit, 'src/app/x.ts')).toMatchObject({ scope: 'global', index: 2 });
    expect(set.decide(edit, 'src/x.ts')).toMatchObject({ scope: 'global', index: 1 });
    expect(set.decide(tool('glob'), undefined)).toMatchObject({ tool: '*', scope: 'global', index: 0 });
  });

  it('selects groups by where a tool comes from, not by its name', () => {
    const set = rules([
      { decision: 'deny', tool: 'plugin:example.words' },
      { decision: 'allow', tool: 'mcp:files' },
      { decision: 'ask', tool: 'group:bridge' },
    ]);
    const plugin = tool('example_words--count', {
      external: true,
      origin: { kind: 'plugin', pluginId: 'example.words' },
    });
    const other = tool('example_words2--count', {
      external: true,
      origin: { kind: 'plugin', pluginId: 'example.words2' },
    });
    expect(set.decide(plugin, undefined)?.decision).toBe('deny');
    expect(set.decide(other, undefined)).toBeNull();
    expect(
      set.decide(tool('mcp__files__read', { external: true, origin: { kind: 'mcp', server: 'files' } }), undefined)
        ?.decision,
    ).toBe('allow');
    expect(set.decide(tool('build', { external: true, origin: { kind: 'bridge' } }), undefined)?.decision).toBe('ask');
    // group:writes is the built-in writers only.
    expect(
      rules([{ decision: 'allow', tool: 'group:writes' }]).decide(
        tool('write', { external: true, origin: { kind: 'bridge' } }),
        'a',
      ),
    ).toBeNull();
  });

  it('matches deny and ask rules on the case-folded path too (a case-insensitive folder), allow rules exactly', () => {
    const set = rules([
      { decision: 'deny', tool: 'group:writes', path: 'secrets/**' },
      { decision: 'allow', tool: 'edit', path: 'docs/**' },
    ]);
    expect(set.decide(edit, 'Secrets/key.txt')?.decision).toBe('deny');
    expect(set.decide(edit, 'SECRETS./Key')?.decision).toBe('deny');
    expect(set.decide(edit, 'Docs/a.md')).toBeNull();
    // A plugin's file write is a write for group:writes.
    const plugin = tool('p--t', { external: true, origin: { kind: 'plugin', pluginId: 'p' } });
    expect(set.decide(plugin, 'secrets/x', true)?.decision).toBe('deny');
    expect(set.decide(plugin, 'secrets/x')).toBeNull();
  });

  it('refuses a bad list whole, naming each problem', () => {
    expect(() => parseRules([{ decision: 'maybe', tool: 'edit' }], 'rules')).toThrow(/rules\[0\]\.decision/);
    expect(() => parseRules([{ decision: 'allow', tool: 'rm -rf' }], 'rules')).toThrow(/rules\[0\]\.tool/);
    expect(() => parseRules([{ decision: 'allow', tool: 'edit', path: '/etc/**' }], 'rules')).toThrow(
      /rules\[0\]\.path/,
    );
    expect(() => parseRules([{ decision: 'allow', tool: 'edit', when: 'always' }], 'rules')).toThrow(
      /rules\[0\]\.when: unknown key/,
    );
    expect(() => parseRules({}, 'rules')).toThrow(/expected a list/);
    expect(parseRules([{ decision: 'ask', tool: 'edit', path: 'package.json' }], 'rules')).toEqual([
      { decision: 'ask', tool: 'edit', path: 'package.json' },
    ]);
  });
});

describe('approval rules in the gate', () => {
  let base: string;
  let fs: WorkspaceFs;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-rules-'));
    fs = protectWrites(await createNodeWorkspaceFs({ root: base, access: 'read-write' }), { allowGitWrites: false });
    await fs.writeText('src/a.ts', 'a\n');
    await fs.writeText('package.json', '{}\n');
    await fs.writeText('secrets/key.txt', 'k\n');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const ruleSet = rules([
    { decision: 'allow', tool: 'edit', path: 'src/**' },
    { decision: 'ask', tool: 'edit', path: 'package.json' },
    { decision: 'deny', tool: 'group:writes', path: 'secrets/**' },
  ]);

  async function turn(calls: ReturnType<typeof call>[], yolo = false) {
    const asked: string[] = [];
    const askPerson = async (r: ApprovalRequest) => (
      asked.push(`${r.name} ${r.prepared?.target?.path ?? String(r.arguments.path)}`),
      'allow' as const
    );
    const run = await runScripted([{ tool_calls: calls }, { content: 'done' }], {
      tools: [readTool(), writeTool(), editTool()],
      fs: fs as never,
      approval: { mode: 'ask', rules: ruleSet, yolo },
      askPerson,
    });
    return { run, asked };
  }

  it('allows the matching edit unasked, asks for the other path, and never runs the denied write', async () => {
    const { run, asked } = await turn([
      call('e1', 'edit', { path: './src/../src/a.ts', old_string: 'a', new_string: 'b' }),
      call('e2', 'edit', { path: 'package.json', old_string: '{}', new_string: '{"x":1}' }),
      call('w1', 'write', { path: 'secrets/key.txt', content: 'stolen' }),
    ]);
    expect(asked).toEqual(['edit package.json']);
    expect(run.result.toolCalls.map((c) => [c.id, c.ran, c.code ?? null])).toEqual([
      ['e1', true, null],
      ['e2', true, null],
      ['w1', false, 'E_TOOL_DENIED'],
    ]);
    expect(await fs.readText('src/a.ts')).toBe('b\n');
    expect(await fs.readText('secrets/key.txt')).toBe('k\n');
    // Each tool message records who decided it; the rule, when one did (the tool card shows it, after a reload too).
    const decided = Object.fromEntries(
      run.result.messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m._approval]] : [])),
    );
    expect(decided).toEqual({
      e1: { by: 'rule', rule: { decision: 'allow', tool: 'edit', path: 'src/**', scope: 'workspace', index: 0 } },
      e2: { by: 'person' },
      w1: {
        by: 'rule',
        rule: { decision: 'deny', tool: 'group:writes', path: 'secrets/**', scope: 'workspace', index: 2 },
      },
    });
    expect(run.events.find((e) => e.type === 'approval' && e.id === 'e1')).toMatchObject({
      by: 'rule',
      rule: { path: 'src/**' },
    });
    const denial = run.events.find((e) => e.type === 'tool-result' && e.id === 'w1');
    expect(denial).toMatchObject({ output: expect.stringContaining('deny group:writes on secrets/**') });
  });

  it('keeps asking for a protected path under an allow rule, and a deny rule holds under yolo', async () => {
    const asking = rules([{ decision: 'allow', tool: '*' }]);
    const asked: string[] = [];
    const run = await runScripted(
      [{ tool_calls: [call('w', 'write', { path: '.vscode/settings.json', content: '{}' })] }, { content: 'done' }],
      {
        tools: [writeTool()],
        fs: fs as never,
        approval: { mode: 'ask', rules: asking },
        askPerson: async (r) => (asked.push(r.name), 'deny'),
      },
    );
    expect(asked).toEqual(['write']);
    expect(run.result.toolCalls[0]).toMatchObject({ ran: false });
    const { run: yolo } = await turn([call('w1', 'write', { path: 'secrets/key.txt', content: 'stolen' })], true);
    expect(yolo.result.toolCalls[0]).toMatchObject({ ran: false, code: 'E_TOOL_DENIED' });
  });
});
