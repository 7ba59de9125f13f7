// `read {path, offset?, limit?}`: numbered lines (`     1\t…`, cat -n style) of one text file. Approval 'free'
// (seed 000 §5). Binary files (a NUL byte, or not UTF-8) and files over READ_MAX_FILE_BYTES are refused with their
// own codes; long lines and long outputs are cut and say how to continue.
import { HarnessError } from '../../contracts';
import type { ToolDefinition, ToolResult } from '../../contracts';
import {
  BINARY_SNIFF_BYTES,
  READ_DEFAULT_LINES,
  READ_MAX_FILE_BYTES,
  READ_MAX_LINE_CHARS,
  READ_MAX_OUTPUT_CHARS,
} from '../../contracts';
import { decodeText, guard, hasNul, intArg, prepareRead, stringArg } from './tool-kit';

export interface ReadLimits {
  maxFileBytes?: number;
  defaultLines?: number;
  maxLineChars?: number;
  maxOutputChars?: number;
}

export function readTool(limits: ReadLimits = {}): ToolDefinition {
  const maxFileBytes = limits.maxFileBytes ?? READ_MAX_FILE_BYTES;
  const defaultLines = limits.defaultLines ?? READ_DEFAULT_LINES;
  const maxLineChars = limits.maxLineChars ?? READ_MAX_LINE_CHARS;
  const maxOutputChars = limits.maxOutputChars ?? READ_MAX_OUTPUT_CHARS;
  return {
    schema: {
      name: 'read',
      description:
        `Read a text file of the workspace. Returns numbered lines ("     1\\tline"). Use offset (1-based line) and limit ` +
        `(lines, default and max ${defaultLines}) for long files. Lines longer than ${maxLineChars} characters are cut. ` +
        `Binary files and files over ${maxFileBytes} bytes are refused; use view_image for images and search for big files.`,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path, e.g. "src/main.ts".' },
          offset: { type: 'integer', minimum: 1, description: 'First line to return (1-based). Default 1.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: defaultLines,
            description: `Number of lines. Default ${defaultLines}.`,
          },
        },
        required: ['path'],
        additionalProperties: false,
      },
    },
    approval: 'free',
    external: false,
    // Names the file for approval rules (`deny read on "secrets/"`); nothing is read here.
    prepare: (args, ctx) => prepareRead('read', 'Read', args, ctx.fs),
    async execute(args, ctx): Promise<ToolResult> {
      return guard(async () => {
        const path = stringArg('read', args, 'path', { nonEmpty: true })!;
        const offset = intArg('read', args, 'offset', 1, Number.MAX_SAFE_INTEGER) ?? 1;
        const limit = intArg('read', args, 'limit', 1, defaultLines) ?? defaultLines;
        const stat = await ctx.fs.stat(path);
        if (!stat)
          throw new HarnessError(
            'E_FS_NOT_FOUND',
            `Nothing exists at ${path} in the workspace. Check the path with glob.`,
            { path },
          );
        if (stat.directory)
          throw new HarnessError(
            'E_READ_IS_DIRECTORY',
            `${path} is a folder. Use glob (e.g. "${path}/*") to list it, then read a file inside it.`,
            { path },
          );
        if (stat.size > maxFileBytes) throw tooLarge(path, stat.size, maxFileBytes);
        let bytes: Uint8Array;
        try {
          bytes = await ctx.fs.readBytes(path, { maxBytes: maxFileBytes });
        } catch (error) {
          if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_LARGE')
            throw tooLarge(path, stat.size, maxFileBytes);
          throw error;
        }
        const text = hasNul(bytes, BINARY_SNIFF_BYTES) ? null : decodeText(bytes);
        if (text === null) {
          throw new HarnessError(
            'E_READ_BINARY',
            `${path} is a binary file (${bytes.length} bytes, not UTF-8 text), so read cannot show it. Use view_image for PNG/JPEG/GIF/WebP images.`,
            { path },
          );
        }
        return { output: numberLines(path, text, offset, limit, maxLineChars, maxOutputChars) };
      });
    },
  };
}

function tooLarge(path: string, size: number, max: number): HarnessError {
  return new HarnessError(
    'E_READ_TOO_LARGE',
    `${path} is ${size} bytes, more than read accepts (${max}). Use search to find the lines you need in it.`,
    { path, size, max },
  );
}

export function numberLines(
  path: string,
  text: string,
  offset: number,
  limit: number,
  maxLineChars: number,
  maxOutputChars: number,
): string {
  if (text.length === 0) return `(${path} is empty)`;
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (offset > lines.length) {
    throw new HarnessError(
      'E_READ_OFFSET',
      `offset ${offset} is past the end of ${path}, which has ${lines.length} lines. Use an offset from 1 to ${lines.length}.`,
      { path, lines: lines.length },
    );
  }
  const out: string[] = [];
  let size = 0;
  let last = offset - 1;
  const end = Math.min(lines.length, offset - 1 + limit);
  for (let i = offset - 1; i < end; i++) {
    let line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (line.length > maxLineChars)
      line = `${line.slice(0, maxLineChars)} [line cut at ${maxLineChars} of ${line.length} characters]`;
    const row = `${String(i + 1).padStart(6)}\t${line}`;
    if (size + row.length + 1 > maxOutputChars && out.length > 0) break;
    out.push(row);
    size += row.length + 1;
    last = i + 1;
  }
  if (last < lines.length)
    out.push(`[showing lines ${offset}-${last} of ${lines.length}; continue with offset ${last + 1}]`);
  return out.join('\n');
}
