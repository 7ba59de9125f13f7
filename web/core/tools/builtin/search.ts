// `search {pattern, path?, glob?, regex?, case_sensitive?, include_ignored?}` (seed 000 §9): lines of workspace
// text files that contain a literal string (default) or match a regular expression, as `path:line: snippet`.
// Approval 'ask'. The walk is bounded (10000 files, 20000 entries) and skips hidden names, build output, what
// .gitignore/.ignore files exclude, binary files (a NUL byte or invalid UTF-8) and files over SEARCH_MAX_FILE_BYTES.
// Output is bounded and says when it was cut.
import { HarnessError } from '../../contracts';
import { normalizeWorkspacePath, type DirEntry } from '../../contracts';
import type { ToolContext, ToolDefinition, ToolResult } from '../../contracts';
import { compileGlob } from '../../contracts';
import {
  BINARY_SNIFF_BYTES,
  SEARCH_CONCURRENCY,
  SEARCH_MAX_FILE_BYTES,
  SEARCH_MAX_MATCHES,
  SEARCH_MAX_OUTPUT_CHARS,
  SEARCH_MAX_PATTERN_CHARS,
  SEARCH_TIME_LIMIT_MS,
} from '../../contracts';
import { lineTest, scanText, type LineTest, type ScanBudget } from './search-scan';
import { boolArg, guard, stringArg, textUnlessBinary } from './tool-kit';
import { ignoredNote, newWalkStats, walkFiles, walkNote, type WalkOptions, type WalkStats } from './walk';

export interface SearchLimits {
  maxFiles?: number;
  maxEntries?: number;
  maxFileBytes?: number;
  maxMatches?: number;
  maxOutputChars?: number;
  timeLimitMs?: number;
  /** Files read at the same time (default SEARCH_CONCURRENCY). */
  concurrency?: number;
  /** Clock for the time budget (tests). */
  now?: () => number;
}

interface FileHits {
  lines: string[];
  skipped?: 'binary' | 'huge';
}

async function searchFile(
  ctx: ToolContext,
  entry: DirEntry,
  test: LineTest,
  budget: ScanBudget,
  maxFileBytes: number,
): Promise<FileHits> {
  let bytes: Uint8Array;
  try {
    bytes = await ctx.fs.readBytes(entry.path, { maxBytes: maxFileBytes });
  } catch (error) {
    // Over the cap (a walk without sizes learns it here) is counted; vanished since the listing is not an error.
    if (HarnessError.isInstance(error) && error.code === 'E_FS_TOO_LARGE') return { lines: [], skipped: 'huge' };
    return { lines: [] };
  }
  const text = textUnlessBinary(bytes, BINARY_SNIFF_BYTES);
  if (text === null) return { lines: [], skipped: 'binary' };
  return { lines: scanText(entry.path, text, test, budget) };
}

export function searchTool(limits: SearchLimits = {}): ToolDefinition {
  const maxFileBytes = limits.maxFileBytes ?? SEARCH_MAX_FILE_BYTES;
  const maxMatches = limits.maxMatches ?? SEARCH_MAX_MATCHES;
  const maxOutputChars = limits.maxOutputChars ?? SEARCH_MAX_OUTPUT_CHARS;
  const timeLimitMs = limits.timeLimitMs ?? SEARCH_TIME_LIMIT_MS;
  const now = limits.now ?? (() => Date.now());
  const concurrency = Math.max(1, limits.concurrency ?? SEARCH_CONCURRENCY);
  return {
    schema: {
      name: 'search',
      description:
        'Search the text of workspace files. Returns "path:line: snippet" lines. Literal text by default; set regex to true for a JavaScript-style regular expression ' +
        '(no backreferences or lookaround). Case: smart by default (case-sensitive only if the pattern has an upper-case letter). ' +
        'path limits the search to a folder or file; glob filters files ("*.ts" matches names, "src/**/*.ts" whole paths). ' +
        'Skips hidden files, build output, what .gitignore/.ignore files exclude (unless include_ignored), binary files and files over 1 MiB.',
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: `Text or regex to find (1–${SEARCH_MAX_PATTERN_CHARS} characters).` },
          path: {
            type: 'string',
            description: 'Folder or file to search, workspace-relative. Default: the whole workspace.',
          },
          glob: { type: 'string', description: 'Only files matching this glob.' },
          regex: { type: 'boolean', description: 'Treat pattern as a regular expression. Default false.' },
          case_sensitive: { type: 'boolean', description: 'Default: smart case.' },
          include_ignored: {
            type: 'boolean',
            description: 'Also search files that .gitignore/.ignore files exclude. Default false.',
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
        const pattern = stringArg('search', args, 'pattern', { nonEmpty: true })!;
        const path = normalizeWorkspacePath(stringArg('search', args, 'path', { optional: true }) ?? '', {
          allowRoot: true,
        }).path;
        const globArg = stringArg('search', args, 'glob', { optional: true, nonEmpty: true });
        const regex = boolArg('search', args, 'regex') ?? false;
        const caseSensitive = boolArg('search', args, 'case_sensitive') ?? /\p{Lu}/u.test(pattern);
        const includeIgnored = boolArg('search', args, 'include_ignored') ?? false;
        const test = lineTest('search', pattern, regex, caseSensitive);
        const glob = globArg === undefined ? undefined : compileGlob(globArg);
        const globOnName = globArg !== undefined && !globArg.includes('/');
        const budget = { left: maxMatches + 1, deadline: now() + timeLimitMs, now, timedOut: false };

        const start = await ctx.fs.stat(path);
        if (!start)
          throw new HarnessError(
            'E_FS_NOT_FOUND',
            `Nothing exists at ${path} in the workspace. Check the path with glob.`,
            { path },
          );
        let walked: WalkStats | undefined;
        let entries: AsyncIterable<DirEntry>;
        if (!start.directory) {
          if (start.size > maxFileBytes)
            throw new HarnessError(
              'E_SEARCH_FILE_TOO_LARGE',
              `${path} is ${start.size} bytes, over the ${maxFileBytes}-byte search limit. Read it in parts with read instead.`,
              { path },
            );
          entries = (async function* () {
            yield { path, name: path.split('/').pop()!, directory: false, size: start.size };
          })();
        } else {
          const options: WalkOptions = { start: path, signal: ctx.signal, includeIgnored };
          if (glob) options.enter = glob.mentioned;
          if (limits.maxFiles !== undefined) options.maxFiles = limits.maxFiles;
          if (limits.maxEntries !== undefined) options.maxEntries = limits.maxEntries;
          walked = newWalkStats();
          entries = walkFiles(ctx.fs, options, walked);
        }

        // Files are read SEARCH_CONCURRENCY at a time while the walk goes on. Results are merged in walk order
        // (slot by slot, as soon as every earlier slot is done), and each file may keep as many matches as were
        // still missing when it started, which is never fewer than it needs: the kept matches are exactly the
        // first ones in walk order, whichever read finishes first. Once they are enough, the walk is left.
        const slots: Array<FileHits | 'huge' | undefined> = [];
        let merged = 0;
        const hits: string[] = [];
        let binary = 0;
        let huge = 0;
        const full = () => hits.length > maxMatches;
        const merge = () => {
          for (let r = slots[merged]; r !== undefined && !full(); r = slots[merged]) {
            slots[merged++] = undefined;
            if (r === 'huge' || r.skipped === 'huge') huge++;
            else if (r.skipped === 'binary') binary++;
            else hits.push(...r.lines);
          }
        };
        const inFlight = new Set<Promise<void>>();
        // Woken by the first read to finish while the pool is full. Promise.race over the pool instead costs a
        // reaction per read in flight for every file (32 × 10,000 on the bench tree).
        let slotFree: (() => void) | undefined;
        let failed: { error: unknown } | undefined;
        for await (const entry of entries) {
          if (ctx.signal.aborted) throw new HarnessError('E_ABORTED', 'The search was stopped.');
          if (full() || budget.timedOut) break;
          if (now() > budget.deadline) {
            budget.timedOut = true;
            break;
          }
          if (walked && glob && !glob.matches(globOnName ? entry.name : entry.path)) continue;
          const slot = slots.push(undefined) - 1;
          if (entry.size > maxFileBytes) {
            slots[slot] = 'huge';
            merge();
            continue;
          }
          const own = { ...budget, left: maxMatches + 1 - hits.length };
          const task = searchFile(ctx, entry, test, own, maxFileBytes)
            .then(
              (r) => {
                if (own.timedOut) budget.timedOut = true;
                slots[slot] = r;
                merge();
              },
              (error: unknown) => void (failed ??= { error }),
            )
            .finally(() => {
              inFlight.delete(task);
              slotFree?.();
            });
          inFlight.add(task);
          if (inFlight.size >= concurrency) await new Promise<void>((resolve) => (slotFree = resolve));
          slotFree = undefined;
          if (failed) throw failed.error;
        }
        await Promise.all(inFlight);
        if (failed) throw failed.error;
        // A search cut by its match cap may have let the walk run ahead into its own caps: not worth a note then.
        const note = walked ? walkNote(full() ? { ...walked, stopped: undefined } : walked, limits) : '';

        const out: string[] = [];
        let size = 0;
        let shown = 0;
        for (const line of hits.slice(0, maxMatches)) {
          if (size + line.length + 1 > maxOutputChars) break;
          out.push(line);
          size += line.length + 1;
          shown++;
        }
        if (out.length === 0) out.push(`No matches for ${JSON.stringify(pattern)}${path ? ` in ${path}` : ''}.`);
        if (hits.length > shown)
          out.push(`[more matches not shown (output limited to ${shown}); narrow the pattern, path or glob]`);
        if (budget.timedOut)
          out.push(`[stopped after ${timeLimitMs} ms: results are incomplete; narrow the path or pattern]`);
        if (note) out.push(note);
        const ignored = walked && hits.length === 0 ? ignoredNote(walked) : '';
        if (ignored) out.push(ignored);
        const skipped = [huge ? `${huge} over ${maxFileBytes} bytes` : '', binary ? `${binary} binary` : ''].filter(
          Boolean,
        );
        if (skipped.length) out.push(`[skipped files: ${skipped.join(', ')}]`);
        return { output: out.join('\n') };
      });
    },
  };
}
