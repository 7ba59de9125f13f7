// Approval rules and the paths they judge (issue 29): a trailing "/" is the folder and everything under it; a rule
// judges the real path behind symbolic links as well as the typed one (deny/ask: either, allow: both), on real links
// with the Node WorkspaceFs; allow wildcards do not match a leading dot; read and view_image are judged by path; a
// path rule on a tool whose calls carry none is refused at load.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/fs/node';
import { runScripted } from '../agent/__fixtures__/harness';
import { call } from '../agent/__fixtures__/scripted-stream';
import { READ_RESULT_TOOL } from '../context/read-result-tool';
import { protectWrites, type WorkspaceFs } from '../contracts/fs';
import { BUILTIN_TOOL_NAMES } from '../modules/profiles/tool-names';
import { editTool, readTool, viewImageTool, writeTool } from '../tools/builtin';
import type { ToolDefinition } from '../contracts/tools';
import {
  checkRules,
  parseRules,
  PATH_RULE_TOOLS,
  PATHLESS_RULE_TOOLS,
  RuleSet,
  scopedRules,
  type ApprovalRule,
} from './rules';
import type { ApprovalRequest } from './types';

const tool = (name: string): ToolDefinition => ({
  schema: { name, description: name, parameters: { type: 'object' } },
  approval: 'ask',
  external: false,
  execute: async () => ({ output: 'ok' }),
});
const rules = (list: ApprovalRule[]) => new RuleSet(scopedRules(list, []));
const edit = tool('edit');

describe('approval rule paths', () => {
  it('reads a trailing "/" as the folder and everything under it', () => {
    const set = rules([
      { decision: 'deny', tool: 'write', path: 'secrets/' },
      { decision: 'allow', tool: 'edit', path: 'src/' },
    ]);
    for (const path of ['secrets', 'secrets/key', 'secrets/a/b/c.txt'])
      expect([path, set.decide(tool('write'), path)?.decision]).toEqual([path, 'deny']);
    expect(set.decide(tool('write'), 'secrets2/key')).toBeNull();
    expect(set.decide(edit, 'src/a/b.ts')?.decision).toBe('allow');
    expect(set.decide(edit, 'Secrets/key')).toBeNull();
    expect(
      rules([{ decision: 'deny', tool: 'write', path: 'Secrets/' }]).decide(tool('write'), 'secrets/KEY')?.decision,
    ).toBe('deny');
  });

  it('matches a deny or ask on the typed or the real path, and an allow only on both', () => {
    const set = rules([
      { decision: 'deny', tool: 'group:writes', path: 'secrets/**' },
      { decision: 'ask', tool: 'edit', path: 'config/**' },
      { decision: 'allow', tool: 'edit', path: 'docs/**' },
    ]);
    expect(set.decide(edit, { path: 'notes/key', realPath: 'secrets/key' })?.decision).toBe('deny');
    expect(set.decide(edit, { path: 'secrets/key', realPath: 'elsewhere/key' })?.decision).toBe('deny');
    expect(set.decide(edit, { path: 'cfg/app.json', realPath: 'config/app.json' })?.decision).toBe('ask');
    expect(set.decide(edit, { path: 'docs/lnk/main.ts', realPath: 'src/main.ts' })).toBeNull();
    expect(set.decide(edit, { path: 'docs/a.md', realPath: 'docs/b.md' })?.decision).toBe('allow');
    expect(set.decide(edit, { path: 'docs/a.md' })?.decision).toBe('allow');
  });

  it('lets allow wildcards skip a leading dot unless the pattern names it; deny and ask wildcards match it', () => {
    const allow = rules([
      { decision: 'allow', tool: 'edit', path: 'src/**' },
      { decision: 'allow', tool: 'write', path: 'src/*' },
    ]);
    expect(allow.decide(edit, 'src/.env')).toBeNull();
    expect(allow.decide(edit, 'src/.config/app.json')).toBeNull();
    expect(allow.decide(edit, 'src/app/main.ts')?.decision).toBe('allow');
    expect(allow.decide(tool('write'), 'src/.env')).toBeNull();
    expect(rules([{ decision: 'allow', tool: 'edit', path: 'src/.*' }]).decide(edit, 'src/.env')?.decision).toBe(
      'allow',
    );
    expect(
      rules([{ decision: 'allow', tool: 'edit', path: '.github/' }]).decide(edit, '.github/CODEOWNERS')?.decision,
    ).toBe('allow');
    expect(rules([{ decision: 'deny', tool: 'edit', path: 'src/*' }]).decide(edit, 'src/.env')?.decision).toBe('deny');
    expect(rules([{ decision: 'ask', tool: 'edit', path: '**' }]).decide(edit, '.env')?.decision).toBe('ask');
  });

  it('refuses a path rule on a tool whose calls carry no path, saying what to do, and accepts it on tools that name a file', () => {
    for (const tool of ['glob', 'search', 'web_fetch', 'memory_set', 'read_result', 'group:bridge', 'mcp:files']) {
      const problems = checkRules([{ decision: 'deny', tool, path: 'secrets/**' }], 'rules');
      expect([tool, problems.length]).toEqual([tool, 1]);
      expect(problems[0]).toContain('would never match; remove the path');
    }
    expect(() => parseRules([{ decision: 'deny', tool: 'search', path: 'secrets/' }], 'rules')).toThrow(
      expect.objectContaining({ code: 'E_APPROVAL_RULES_INVALID' }),
    );
    for (const tool of [
      'read',
      'view_image',
      'write',
      'edit',
      'group:writes',
      'plugin:example.words',
      '*',
      'some_plugin--tool',
    ]) {
      expect([tool, checkRules([{ decision: 'deny', tool, path: 'secrets/' }], 'rules')]).toEqual([tool, []]);
    }
    // Tool-wide rules on them stay valid: the gate applies those to every call.
    expect(
      checkRules(
        [
          { decision: 'ask', tool: 'search' },
          { decision: 'ask', tool: 'read' },
          { decision: 'deny', tool: 'mcp:files' },
        ],
        'rules',
      ),
    ).toEqual([]);
  });

  it('knows every built-in tool as either judged by path or not', () => {
    expect([...PATH_RULE_TOOLS, ...PATHLESS_RULE_TOOLS].sort()).toEqual(
      [...BUILTIN_TOOL_NAMES, READ_RESULT_TOOL].sort(),
    );
  });
});

// Real symbolic links in a temp folder, through the Node WorkspaceFs, the tools' prepare, the gate and the loop.
describe('approval rules on real symbolic links (Node WorkspaceFs)', () => {
  let base: string;
  let fs: WorkspaceFs;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-rule-links-'));
    for (const d of ['secrets', 'src', 'docs']) await mkdir(join(base, d));
    await writeFile(join(base, 'secrets', 'key.txt'), 'k\n');
    await writeFile(join(base, 'src', 'main.ts'), 'a\n');
    await writeFile(join(base, 'src', '.env'), 'TOKEN=1\n');
    await symlink('secrets', join(base, 'notes'));
    await symlink('../src', join(base, 'docs', 'lnk'));
    fs = protectWrites(await createNodeWorkspaceFs({ root: base, access: 'read-write' }), { allowGitWrites: false });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  async function turn(list: ApprovalRule[], calls: ReturnType<typeof call>[], yolo = false) {
    const asked: string[] = [];
    const askPerson = async (r: ApprovalRequest) => (
      asked.push(`${r.name} ${r.prepared?.target?.path ?? '?'}`),
      'deny' as const
    );
    const run = await runScripted([{ tool_calls: calls }, { content: 'done' }], {
      tools: [readTool(), writeTool(), editTool(), viewImageTool()],
      fs: fs as never,
      approval: { mode: 'ask', rules: rules(list), yolo },
      askPerson,
    });
    return {
      asked,
      calls: run.result.toolCalls.map((c) => [c.id, c.ran, c.code ?? null]),
      outputs: run.events.flatMap((e) => (e.type === 'tool-result' ? [e.output] : [])),
    };
  }

  it('denies a write or edit through a link into a denied folder (secrets/), even under yolo', async () => {
    const r = await turn(
      [{ decision: 'deny', tool: 'group:writes', path: 'secrets/' }],
      [
        call('w', 'write', { path: 'notes/key.txt', content: 'stolen' }),
        call('e', 'edit', { path: './notes/key.txt', old_string: 'k', new_string: 'x' }),
      ],
      true,
    );
    expect(r.calls).toEqual([
      ['w', false, 'E_TOOL_DENIED'],
      ['e', false, 'E_TOOL_DENIED'],
    ]);
    expect(r.outputs[0]).toContain('a symbolic link to secrets/key.txt');
    expect(await fs.readText('secrets/key.txt')).toBe('k\n');
  });

  it('does not let an allow on docs/** cover a link out of docs/ (docs/lnk -> ../src): the person is asked', async () => {
    const r = await turn(
      [{ decision: 'allow', tool: 'edit', path: 'docs/**' }],
      [call('e', 'edit', { path: 'docs/lnk/main.ts', old_string: 'a', new_string: 'b' })],
    );
    expect(r.asked).toEqual(['edit docs/lnk/main.ts']);
    expect(r.calls).toEqual([['e', false, 'E_TOOL_REJECTED']]);
    expect(await fs.readText('src/main.ts')).toBe('a\n');
  });

  it('judges reads by path: deny read on "secrets/" holds for ./secrets/…, a link into it and view_image; other reads run', async () => {
    const r = await turn(
      [
        { decision: 'deny', tool: 'read', path: 'secrets/' },
        { decision: 'deny', tool: 'view_image', path: 'secrets/' },
      ],
      [
        call('r1', 'read', { path: './secrets/key.txt' }),
        call('r2', 'read', { path: 'notes/key.txt' }),
        call('v', 'view_image', { path: 'notes/key.txt' }),
        call('r3', 'read', { path: 'src/main.ts' }),
      ],
    );
    expect(r.calls).toEqual([
      ['r1', false, 'E_TOOL_DENIED'],
      ['r2', false, 'E_TOOL_DENIED'],
      ['v', false, 'E_TOOL_DENIED'],
      ['r3', true, null],
    ]);
    expect(r.outputs.join('\n')).not.toContain('k\n');
  });

  it('asks before a read an ask rule covers (read is otherwise free)', async () => {
    const r = await turn(
      [{ decision: 'ask', tool: 'read', path: 'src/.*' }],
      [call('r', 'read', { path: 'src/.env' }), call('r2', 'read', { path: 'src/main.ts' })],
    );
    expect(r.asked).toEqual(['read src/.env']);
    expect(r.calls).toEqual([
      ['r', false, 'E_TOOL_REJECTED'],
      ['r2', true, null],
    ]);
  });

  it('does not let an allow on src/** write src/.env unasked', async () => {
    const r = await turn(
      [{ decision: 'allow', tool: 'edit', path: 'src/**' }],
      [
        call('e', 'edit', { path: 'src/.env', old_string: '1', new_string: '2' }),
        call('m', 'edit', { path: 'src/main.ts', old_string: 'a', new_string: 'b' }),
      ],
    );
    expect(r.asked).toEqual(['edit src/.env']);
    expect(await fs.readText('src/.env')).toBe('TOKEN=1\n');
    expect(await fs.readText('src/main.ts')).toBe('b\n');
  });
});
