// The built-in tools inside the real agent loop and approval gate: what the person is shown, what runs without
// asking, and what happens when the file changes while the person is deciding.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import { runScripted } from '../../agent/__fixtures__/harness';
import { call } from '../../agent/__fixtures__/scripted-stream';
import type { ApprovalRequest } from '../../approval';
import type { WorkspaceFs } from '../../contracts/fs';
import { builtinTools, createInMemoryMemoryStore } from '../../modules';
import { ToolRegistry } from '../registry';
import { markedToolContent } from '../../agent/native-marks';

describe('built-in tools through the approval gate', () => {
  let base: string;
  let fs: WorkspaceFs;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'i-interplay-'));
    fs = await createNodeWorkspaceFs({ root: base, access: 'read-write' });
    await fs.writeText('src/a.ts', 'export const a = 1;\n');
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  const tools = () => builtinTools({ memory: createInMemoryMemoryStore() });

  it('registers every built-in tool with a schema the registry accepts', () => {
    const registry = new ToolRegistry();
    for (const t of tools()) registry.register(t);
    expect(registry.names()).toEqual([
      'read',
      'write',
      'edit',
      'glob',
      'search',
      'view_image',
      'memory_get',
      'memory_set',
    ]);
    expect(registry.checkArguments('edit', { path: 'a', old_string: 'x', new_string: 'y', extra: 1 })).not.toEqual([]);
    expect(registry.checkArguments('read', { path: 'a', offset: 2 })).toEqual([]);
  });

  it('reads without asking, shows the edit diff for approval, and applies it once allowed', async () => {
    const asked: ApprovalRequest[] = [];
    const run = await runScripted(
      [
        {
          tool_calls: [
            call('r1', 'read', { path: 'src/a.ts' }),
            call('e1', 'edit', { path: 'src/a.ts', old_string: '= 1', new_string: '= 2' }),
          ],
        },
        { content: 'done' },
      ],
      { tools: tools(), fs: fs as never, askPerson: async (r) => (asked.push(r), 'allow') },
    );
    expect(asked.map((r) => [r.name, r.prepared?.summary, r.prepared?.detail])).toEqual([
      [
        'edit',
        'Edit src/a.ts (1 replacement)',
        '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,1 @@\n-export const a = 1;\n+export const a = 2;\n',
      ],
    ]);
    expect(await fs.readText('src/a.ts')).toBe('export const a = 2;\n');
    const toolMessages = run.model.calls[1]!.input.history.filter((m) => m.role === 'tool');
    expect(toolMessages.map((m) => m.content)).toEqual(
      [
        '     1\texport const a = 1;',
        'Edited src/a.ts: 1 replacement.\nDiff of what was written:\n' +
          '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,1 +1,1 @@\n-export const a = 1;\n+export const a = 2;',
      ].map(markedToolContent),
    );
  });

  it('does not apply an edit when the file changed while the person was deciding', async () => {
    const run = await runScripted(
      [
        { tool_calls: [call('e1', 'edit', { path: 'src/a.ts', old_string: '= 1', new_string: '= 2' })] },
        { content: 'done' },
      ],
      {
        tools: tools(),
        fs: fs as never,
        askPerson: async () => {
          await fs.writeText('src/a.ts', 'export const a = 1; // touched\n');
          return 'allow';
        },
      },
    );
    expect(run.result.toolCalls[0]).toMatchObject({ code: 'E_EDIT_CONFLICT' });
    expect(await fs.readText('src/a.ts')).toBe('export const a = 1; // touched\n');
  });

  it('asks for memory_set as an external tool and writes nothing when denied', async () => {
    const asked: ApprovalRequest[] = [];
    const memory = createInMemoryMemoryStore();
    await runScripted([{ tool_calls: [call('m1', 'memory_set', { key: 'k', value: 'v' })] }, { content: 'ok' }], {
      tools: builtinTools({ memory }),
      fs: fs as never,
      askPerson: async (r) => (asked.push(r), 'deny'),
    });
    expect(asked.map((r) => [r.name, r.external, r.prepared?.summary])).toEqual([['memory_set', true, 'Remember "k"']]);
    expect((await memory.read('ws')).entries).toEqual({});
  });
});
