// `glob {pattern}`: workspace files whose path matches a glob (see glob-match.ts for the syntax). Approval 'ask'
// (seed 000 §5: only read and view_image are free). The walk starts at the pattern's literal folder prefix, skips
// hidden names unless the pattern names one, skips build output unless the pattern names the folder, and is
// bounded like search (10000 files, 20000 entries).
import type { ToolDefinition, ToolResult } from '../types';
import { compileGlob } from './glob-match';
import { GLOB_MAX_RESULTS } from './limits';
import { guard, stringArg } from './tool-kit';
import { walk, walkNote, type WalkOptions } from './walk';

export interface GlobLimits {
  maxResults?: number;
  maxFiles?: number;
  maxEntries?: number;
}

export function globTool(limits: GlobLimits = {}): ToolDefinition {
  const maxResults = limits.maxResults ?? GLOB_MAX_RESULTS;
  return {
    schema: {
      name: 'glob',
      description:
        'List workspace files matching a glob pattern, e.g. "src/**/*.ts", "*.{json,md}", "test/[a-c]*". ' +
        '** matches any folders, * any characters but "/", ? one character. Hidden files and build output ' +
        `(node_modules, dist, target, ...) are skipped unless the pattern names them. At most ${maxResults} paths.`,
      parameters: {
        type: 'object',
        properties: { pattern: { type: 'string', description: 'Glob relative to the workspace root.' } },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: false,
    async execute(args, ctx): Promise<ToolResult> {
      return guard(async () => {
        const pattern = stringArg('glob', args, 'pattern', { nonEmpty: true })!;
        const matcher = compileGlob(pattern);
        const start = matcher.base;
        if (start && !(await ctx.fs.stat(start))?.directory) return { output: `No files match ${pattern} (${start} is not a folder).` };
        const matched: string[] = [];
        let more = 0;
        const options: WalkOptions = {
          start,
          signal: ctx.signal,
          includeHidden: matcher.mentionsHidden,
          enter: matcher.mentioned,
          accept: (entry) => {
            if (!matcher.matches(entry.path)) return false;
            if (matched.length < maxResults) matched.push(entry.path);
            else more++;
            return false;
          },
        };
        if (limits.maxFiles !== undefined) options.maxFiles = limits.maxFiles;
        if (limits.maxEntries !== undefined) options.maxEntries = limits.maxEntries;
        const result = await walk(ctx.fs, options);
        const lines = matched.length > 0 ? [...matched] : [`No files match ${pattern}.`];
        if (more > 0) lines.push(`[${more} more paths not shown; use a narrower pattern]`);
        const note = walkNote(result, limits);
        if (note) lines.push(note);
        return { output: lines.join('\n') };
      });
    },
  };
}
