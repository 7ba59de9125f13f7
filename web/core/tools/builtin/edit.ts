// `edit {path, old_string, new_string, replace_all?}`: exact string replacement in one text file. Approval 'ask'.
// A unique match is required unless replace_all (E_EDIT_NOT_FOUND / E_EDIT_AMBIGUOUS say how to fix the call).
// prepare() computes the new content and its unified diff from a snapshot; execute() re-reads the file, refuses
// with E_EDIT_CONFLICT if it is not byte-identical to that snapshot, and writes the content the person saw — or the
// whole content they edited the proposal into before allowing it (prepare offers the file and the result for review).
import type { FileSnapshot } from '../../approval';
import { HarnessError } from '../../contracts';
import type { PreparedCall, ToolContext, ToolDefinition, ToolResult } from '../../contracts';
import { unifiedDiff } from './diff';
import { isSnapshot, readFileState, type FileState } from './file-state';
import {
  badArgs,
  boolArg,
  contentToWrite,
  guard,
  reviewOf,
  shownTarget,
  stringArg,
  targetFields,
  writeTarget,
  appliedDiffNote,
} from './tool-kit';

interface EditPlan {
  /** The normalised path (what is read and written); `shown` is what the card says. */
  path: string;
  shown: string;
  fields: Pick<PreparedCall, 'target' | 'alwaysAsk'>;
  content: string;
  replacements: number;
  diff: string;
  snapshot: FileSnapshot;
  /** The file as it was (for the review). */
  before: string;
}

function countOf(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Replaces `search` by `replacement` literally (no `$&` patterns). */
function replaceLiteral(text: string, search: string, replacement: string, all: boolean): string {
  if (all) return text.split(search).join(replacement);
  const at = text.indexOf(search);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}

async function planEdit(args: Record<string, unknown>, ctx: ToolContext, seen?: FileSnapshot): Promise<EditPlan> {
  const target = await writeTarget('edit', args, ctx.fs);
  const path = target.path.path;
  let oldString = stringArg('edit', args, 'old_string', { nonEmpty: true })!;
  let newString = stringArg('edit', args, 'new_string')!;
  const all = boolArg('edit', args, 'replace_all') ?? false;
  if (oldString === newString)
    throw badArgs(
      'edit',
      'old_string and new_string are the same, so nothing would change. Give the new text in new_string.',
    );
  const state: FileState = await readFileState(ctx.fs, path);
  // Checked first: a changed file must say "conflict", not "old_string not found".
  if (seen && seen.sha256 !== state.snapshot.sha256) {
    throw new HarnessError(
      'E_EDIT_CONFLICT',
      `The file ${path} changed after the edit was prepared and shown for approval, so the edit was not applied. Read the file again and redo the edit.`,
      { path },
    );
  }
  if (!state.exists)
    throw new HarnessError('E_FS_NOT_FOUND', `${path} does not exist. Use write to create a new file.`, { path });
  if (state.text === null)
    throw new HarnessError('E_EDIT_BINARY', `${path} is not UTF-8 text, so edit cannot change it.`, { path });
  const text = state.text;
  let count = countOf(text, oldString);
  // Models usually send "\n" line ends; match a CRLF file by converting both strings, and keep its line ends.
  if (count === 0 && text.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r\n')) {
    const crlf = (s: string) => s.replace(/\r?\n/g, '\r\n');
    if (countOf(text, crlf(oldString)) > 0) {
      oldString = crlf(oldString);
      newString = crlf(newString);
      count = countOf(text, oldString);
    }
  }
  if (count === 0) {
    throw new HarnessError(
      'E_EDIT_NOT_FOUND',
      `old_string was not found in ${path}. It must match the file exactly, including indentation and line breaks; read the file again and copy the text.`,
      { path },
    );
  }
  if (count > 1 && !all) {
    throw new HarnessError(
      'E_EDIT_AMBIGUOUS',
      `old_string occurs ${count} times in ${path}. Include more surrounding lines so it is unique, or set replace_all to true to change every occurrence.`,
      { path, count },
    );
  }
  const content = replaceLiteral(text, oldString, newString, all);
  return {
    path,
    shown: shownTarget(target),
    fields: targetFields(target),
    content,
    replacements: all ? count : 1,
    diff: unifiedDiff(text, content, path, path),
    snapshot: state.snapshot,
    before: text,
  };
}

export function editTool(): ToolDefinition {
  return {
    schema: {
      name: 'edit',
      description:
        'Replace exact text in a file. old_string must match the file exactly (indentation included) and be unique unless replace_all is true. ' +
        'Read the file first. The person sees a diff before it is applied.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path of an existing text file.' },
          old_string: { type: 'string', description: 'The exact text to replace (non-empty).' },
          new_string: { type: 'string', description: 'The replacement text.' },
          replace_all: {
            type: 'boolean',
            description: 'Replace every occurrence instead of exactly one. Default false.',
          },
        },
        required: ['path', 'old_string', 'new_string'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: false,
    async prepare(args, ctx): Promise<PreparedCall> {
      const plan = await planEdit(args, ctx);
      const what = plan.replacements === 1 ? '1 replacement' : `${plan.replacements} replacements`;
      return {
        summary: `Edit ${plan.shown} (${what})`,
        detail: plan.diff,
        state: plan.snapshot,
        ...plan.fields,
        ...reviewOf(plan.before, plan.content),
      };
    },
    async execute(args, ctx, prepared): Promise<ToolResult> {
      return guard(async () => {
        const seen = prepared && isSnapshot(prepared.state) ? prepared.state : undefined;
        const plan = await planEdit(args, ctx, seen);
        const { content, note } = contentToWrite(ctx, plan.content, plan.path);
        await ctx.fs.writeText(plan.path, content);
        const what = plan.replacements === 1 ? '1 replacement' : `${plan.replacements} replacements`;
        return { output: `Edited ${plan.path}: ${what}.${note}${appliedDiffNote(plan.before, content, plan.path)}` };
      });
    },
  };
}
