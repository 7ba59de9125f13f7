// Test tools: a free `read`, an asking `write`, and an `edit` that follows the snapshot contract.
import { assertUnchanged, isFileSnapshot, takeFileSnapshot } from '../../approval';
import { toErrorData } from '../../contracts/errors';
import type { ToolDefinition } from '../../contracts/tools';

export const readTool = (log: string[] = []): ToolDefinition => ({
  schema: { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false } },
  approval: 'free',
  external: false,
  async execute(args, ctx) {
    log.push(`read ${String(args.path)}`);
    return { output: await ctx.fs.readText(String(args.path)) };
  },
});

export const writeTool = (log: string[] = []): ToolDefinition => ({
  schema: { name: 'write', description: 'Write a file', parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] } },
  approval: 'ask',
  external: false,
  async execute(args, ctx) {
    log.push(`write ${String(args.path)}`);
    await ctx.fs.writeText(String(args.path), String(args.text));
    return { output: 'written' };
  },
});

export const editTool = (log: string[] = []): ToolDefinition => ({
  schema: {
    name: 'edit',
    description: 'Replace text in a file',
    parameters: { type: 'object', properties: { path: { type: 'string' }, old: { type: 'string' }, new: { type: 'string' } }, required: ['path', 'old', 'new'] },
  },
  approval: 'ask',
  external: false,
  async prepare(args, ctx) {
    const snapshot = await takeFileSnapshot(ctx.fs, String(args.path));
    return { summary: `Edit ${String(args.path)}`, state: snapshot };
  },
  async execute(args, ctx, prepared) {
    try {
      if (!isFileSnapshot(prepared?.state)) throw new Error('edit needs its prepared snapshot');
      await assertUnchanged(ctx.fs, prepared.state);
      const text = await ctx.fs.readText(String(args.path));
      await ctx.fs.writeText(String(args.path), text.replace(String(args.old), String(args.new)));
      log.push(`edit ${String(args.path)}`);
      return { output: 'edited' };
    } catch (error) {
      const e = toErrorData(error, 'E_TOOL_FAILED');
      return { output: e.message, error: true, code: e.code };
    }
  },
});
