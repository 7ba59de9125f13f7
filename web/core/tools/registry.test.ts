import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../contracts/tools';
import { ToolRegistry } from './registry';

const tool = (
  name: string,
  parameters: Record<string, unknown> = {
    type: 'object',
    properties: { n: { type: 'integer', minimum: 1 } },
    required: ['n'],
  },
  external = false,
): ToolDefinition => ({
  schema: { name, description: `${name} tool`, parameters },
  approval: 'ask',
  external,
  execute: async () => ({ output: '' }),
});

describe('tool registry', () => {
  it('refuses bad names, duplicates and non-object schemas with stable codes', () => {
    const r = new ToolRegistry();
    r.register(tool('read'));
    expect(() => r.register(tool('read', undefined, true))).toThrow(
      expect.objectContaining({ code: 'E_TOOL_DUPLICATE' }),
    );
    for (const bad of ['', 'has space', 'x'.repeat(65), 'ünï', 'a/b'])
      expect(() => r.register(tool(bad))).toThrow(expect.objectContaining({ code: 'E_TOOL_NAME_INVALID' }));
    // A hostile name (a 3 MiB string with terminal controls) is quoted short and with its controls visible.
    const hostile = `\x1b]0;x\x07${'n'.repeat(3 * 1024 * 1024)}`;
    let message = '';
    try {
      r.register(tool(hostile));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.length).toBeLessThan(300);
    expect(message).toContain('\\x1b');
    expect(message).not.toContain('\x1b');
    expect(() => r.register(tool('arr', { type: 'array' }))).toThrow(
      expect.objectContaining({ code: 'E_TOOL_SCHEMA_INVALID' }),
    );
  });

  it('offers schemas in registration order, split by origin, and forgets a tool on unregister', () => {
    const r = new ToolRegistry();
    r.register(tool('b'));
    const off = r.register(tool('a'));
    r.register(tool('plugin_x', undefined, true));
    expect(r.schemas().map((s) => s.name)).toEqual(['b', 'a', 'plugin_x']);
    expect(r.schemas((d) => d.external).map((s) => s.name)).toEqual(['plugin_x']);
    off();
    expect(r.has('a')).toBe(false);
    expect(r.names()).toEqual(['b', 'plugin_x']);
  });

  it('checks arguments against the schema with the path in each message', () => {
    const r = new ToolRegistry();
    r.register(tool('count'));
    expect(r.checkArguments('count', { n: 2 })).toEqual([]);
    expect(r.checkArguments('count', { n: 0 })).toEqual([
      expect.stringMatching(/^At arguments\.n: .*minimum|^At arguments\.n: /),
    ]);
    expect(r.checkArguments('count', {})[0]).toMatch(/^At arguments: .*required property "n"/);
    expect(r.checkArguments('nope', {})).toEqual(['Unknown tool "nope".']);
  });
});
