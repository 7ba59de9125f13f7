// Undo covers commands (issue 31): a turn whose tool runs a real command through `ctx.commandChanges` (as the shell
// tool does), with the checkpoints headless `i` gives a turn, on a real git repository; then `i --changes --json`,
// `i --revert` and `i --redo` in-process treat what the command changed exactly like an edit.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../plugin-host/node';
import { runTurn } from '../agent';
import { call, scriptedModel } from '../agent/__fixtures__/scripted-stream';
import { DEFAULT_APPROVAL } from '../approval';
import { protectWrites, type ToolDefinition } from '../contracts';
import { HookPipeline } from '../hooks';
import { ToolRegistry } from '../tools';
import { headlessCheckpoints } from './changes';
import { headlessProject } from './cli-test-kit';

// A stand-in for the shell tool: begin, the command as a real process, finish; the summary is its output.
const runTool = (cwd: string): ToolDefinition => ({
  schema: {
    name: 'run',
    description: 'runs a command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  approval: 'ask',
  external: false,
  async execute(args, ctx) {
    const command = String(args.command);
    const watch = await ctx.commandChanges!.begin(command);
    if (watch.untracked) return { output: `${watch.untracked.code}: ${watch.untracked.message}` };
    const ran = spawnSync('sh', ['-c', command], { cwd });
    const summary = await watch.finish();
    return { output: JSON.stringify({ status: ran.status, ...summary }) };
  },
});

const BINARY = Buffer.from([0, 255, 13, 10, 0x80, 0, 7]);

describe('a command in a headless turn', () => {
  it('lists its created, modified and deleted files in --changes --json, and --revert / --redo restore them', async () => {
    const p = headlessProject(
      { base_url: 'http://127.0.0.1:9/v1', model: 'm' },
      {
        'old.txt': 'old\n',
        'gone.txt': 'gone\n',
        '.gitignore': 'ignored/\n',
      },
    );
    writeFileSync(join(p.dir, 'data.bin'), BINARY);
    spawnSync('sh', ['-c', 'git init -q . && git add -A'], { cwd: p.dir });
    const script =
      "echo x > new.txt; echo y >> old.txt; rm gone.txt; printf '\\377' >> data.bin; mkdir -p ignored && echo i > ignored/out; echo h > .git/description";
    const model = scriptedModel([{ tool_calls: [call('c1', 'run', { command: script })] }, { content: 'ran it' }]);
    const tools = new ToolRegistry();
    tools.register(runTool(p.dir));
    const warnings: string[] = [];
    const checkpoints = await headlessCheckpoints(p.dir, 'work', (t) => warnings.push(t));
    const turn = runTurn(
      {
        model: {
          protocol: 'openai',
          base_url: 'http://127.0.0.1:9/v1',
          model: 'm',
          max_tokens: 100,
          use_max_tokens: false,
          extra_body: {},
          budget: null,
        },
        history: [],
        content: 'run it',
      },
      {
        stream: model.stream,
        tools,
        hooks: new HookPipeline(),
        approval: { ...DEFAULT_APPROVAL, yolo: true },
        fs: protectWrites(await createNodeWorkspaceFs({ root: p.dir, access: 'read-write' }), {
          allowGitWrites: false,
        }),
        workspaceId: 'ws',
        checkpoints,
      },
    );
    for await (const event of turn) if (event.type === 'error') throw new Error(event.error.message);
    const result = await turn.result();
    const tool = result.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(tool?.content))).toEqual({
      status: 0,
      created: ['new.txt'],
      modified: ['data.bin', 'old.txt'],
      deleted: ['gone.txt'],
    });
    expect(warnings).toEqual([]);

    const listed = await p.run(['--session-name', 'work', '--changes', '--json']);
    expect(listed.stderr).toBe('');
    const { changes } = JSON.parse(listed.stdout) as { changes: Array<Record<string, unknown>> };
    expect(
      changes.map((c) => [c.path, c.turn, c.step, c.tool, c.call_id, c.change, c.bytes_before, c.bytes_after]),
    ).toEqual([
      ['data.bin', 1, 1, 'run', 'c1', 'modified', 7, 8],
      ['gone.txt', 1, 1, 'run', 'c1', 'deleted', 5, null],
      ['new.txt', 1, 1, 'run', 'c1', 'created', null, 2],
      ['old.txt', 1, 1, 'run', 'c1', 'modified', 4, 6],
    ]);

    const reverted = await p.run(['--session-name', 'work', '--revert']);
    expect(reverted.stderr).toBe('');
    expect(reverted.code).toBe(0);
    expect(reverted.stdout).toContain('Reverted 4 file(s) changed by turn 1 and later');
    expect(readFileSync(join(p.dir, 'old.txt'), 'utf8')).toBe('old\n');
    expect(readFileSync(join(p.dir, 'gone.txt'), 'utf8')).toBe('gone\n');
    expect(existsSync(join(p.dir, 'new.txt'))).toBe(false);
    expect(readFileSync(join(p.dir, 'data.bin'))).toEqual(BINARY);
    // Ignored files and .git are none of undo's business: the revert left them as the command made them.
    expect(readFileSync(join(p.dir, 'ignored', 'out'), 'utf8')).toBe('i\n');
    expect(readFileSync(join(p.dir, '.git', 'description'), 'utf8')).toBe('h\n');

    const redone = await p.run(['--session-name', 'work', '--redo']);
    expect(redone.code).toBe(0);
    expect(readFileSync(join(p.dir, 'old.txt'), 'utf8')).toBe('old\ny\n');
    expect(existsSync(join(p.dir, 'gone.txt'))).toBe(false);
    expect(readFileSync(join(p.dir, 'new.txt'), 'utf8')).toBe('x\n');
    expect(readFileSync(join(p.dir, 'data.bin'))).toEqual(Buffer.concat([BINARY, Buffer.from([255])]));
  });
});
