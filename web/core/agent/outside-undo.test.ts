// A tool that runs in another process (i-bridge, an MCP server) changes files the core cannot record: its tool
// message says so (`_outside_undo`), for the card; the app's own tools and plugins are recorded and carry no mark.
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../contracts/tools';
import { runScripted } from './__fixtures__/harness';
import { call } from './__fixtures__/scripted-stream';

const tool = (name: string, origin?: ToolDefinition['origin']): ToolDefinition => ({
  schema: { name, description: name, parameters: { type: 'object' } },
  approval: 'ask',
  external: origin !== undefined,
  ...(origin ? { origin } : {}),
  execute: async () => ({ output: 'ran' }),
});

describe('tools outside the undo history', () => {
  it('marks the results of bridge and MCP tools, not of plugins or built-ins', async () => {
    const run = await runScripted(
      [
        {
          tool_calls: [
            call('b', 'build', {}),
            call('m', 'mcp__files__write', {}),
            call('p', 'p--t', {}),
            call('l', 'local', {}),
          ],
        },
        { content: 'done' },
      ],
      {
        tools: [
          tool('build', { kind: 'bridge' }),
          tool('mcp__files__write', { kind: 'mcp', server: 'files' }),
          tool('p--t', { kind: 'plugin', pluginId: 'p' }),
          tool('local'),
        ],
        approval: { yolo: true },
      },
    );
    const marks = Object.fromEntries(
      run.result.messages.flatMap((m) => (m.role === 'tool' ? [[m.tool_call_id, m._outside_undo === true]] : [])),
    );
    expect(marks).toEqual({ b: true, m: true, p: false, l: false });
  });
});
