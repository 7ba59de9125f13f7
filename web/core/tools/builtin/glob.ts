// `glob {pattern}`: workspace files whose path matches a glob (see glob-match.ts for the syntax). Approval 'ask'
// (seed 000 §5: only read and view_image are free). The walk starts at the pattern's literal folder prefix, skips
// hidden names unless the pattern names one, skips build output unless the pattern names the folder, leaves out
// what .gitignore/.ignore files exclude unless `include_ignored`, is bounded like search (10000 files, 20000
// entries), and stops listing folders once it has one path more than it may show.
import type { ToolDefinition, ToolResult } from '../../contracts';
import { compileGlob } from '../../contracts';
import { GLOB_MAX_RESULTS } from '../../contracts';
import { boolArg, guard, stringArg } from './tool-kit';
import { ignoredNote, newWalkStats, walkFiles, walkNote, type WalkOptions } from './walk';

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
        `(node_modules, dist, target, ...) are skipped unless the pattern names them, and so is what .gitignore/.ignore files exclude unless include_ignored is true. At most ${maxResults} paths.`,
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: 'Glob relative to the workspace root.' },
          include_ignored: {
            type: 'boolean',
            description: 'Also list files that .gitignore/.ignore files exclude. Default false.',
          },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: false,
    async execute(args, ctx): Promise<ToolResult> {
      return guard(async () => {
        const pattern = stringArg('glob', args, 'pattern', { nonEmpty: true })!;
        const includeIgnored = boolArg('glob', args, 'include_ignored') ?? false;
        const matcher = compileGlob(pattern);
        const start = matcher.base;
        if (start && !(await ctx.fs.stat(start))?.directory)
          return { output: `No files match ${pattern} (${start} is not a folder).` };
        const matched: string[] = [];
        let more = false;
        const options: WalkOptions = {
          start,
          signal: ctx.signal,
          includeHidden: matcher.mentionsHidden,
          enter: matcher.mentioned,
          includeIgnored,
        };
        if (limits.maxFiles !== undefined) options.maxFiles = limits.maxFiles;
        if (limits.maxEntries !== undefined) options.maxEntries = limits.maxEntries;
        const stats = newWalkStats();
        for await (const entry of walkFiles(ctx.fs, options, stats)) {
          if (!matcher.matches(entry.path)) continue;
          if (matched.length === maxResults) {
            more = true;
            break; // the rest of the tree is never listed
          }
          matched.push(entry.path);
        }
        const lines = matched.length > 0 ? [...matched] : [`No files match ${pattern}.`];
        if (more) lines.push(`[more paths not shown (listed the first ${maxResults}); use a narrower pattern]`);
        const note = walkNote(stats, limits);
        if (note) lines.push(note);
        const ignored = matched.length === 0 ? ignoredNote(stats) : '';
        if (ignored) lines.push(ignored);
        return { output: lines.join('\n') };
      });
    },
  };
}
