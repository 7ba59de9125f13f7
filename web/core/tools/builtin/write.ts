// `write {path, content}`: replaces or creates a whole text file, atomically through WorkspaceFs. Approval 'ask'.
// prepare() shows the unified diff against the current content (and offers both texts for review) and keeps a
// snapshot; execute() refuses with E_EDIT_CONFLICT when the file changed after the person saw the diff, and writes
// the person's version when they edited the proposal before allowing it.
import { assertUnchanged, type FileSnapshot } from '../../approval';
import type { PreparedCall, ToolDefinition, ToolResult } from '../../contracts';
import type { ToolContext } from '../../contracts';
import { unifiedDiff } from './diff';
import { isSnapshot, readFileState } from './file-state';
import {
  appliedDiffNote,
  contentToWrite,
  guard,
  reviewOf,
  shownTarget,
  stringArg,
  targetFields,
  writeTarget,
} from './tool-kit';

// Summary, diff header and snapshot name the normalised path (what will be written), never the raw argument; the
// summary shows `"raw" → path` when the model sent another form of it.
async function prepareWrite(args: Record<string, unknown>, ctx: ToolContext): Promise<PreparedCall> {
  const target = await writeTarget('write', args, ctx.fs);
  const path = target.path.path;
  const shown = shownTarget(target);
  const content = stringArg('write', args, 'content')!;
  const state = await readFileState(ctx.fs, path);
  const lines = content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  const fields = targetFields(target);
  if (!state.exists) {
    return {
      summary: `Create ${shown} (${linesText(lines)})`,
      detail: unifiedDiff('', content, null, path),
      state: state.snapshot,
      ...fields,
      ...reviewOf(null, content),
    };
  }
  if (state.text === null) {
    return {
      summary: `Overwrite binary file ${shown} with text (${linesText(lines)})`,
      detail: `(${path} is binary; no diff)`,
      state: state.snapshot,
      ...fields,
    };
  }
  const detail = unifiedDiff(state.text, content, path, path);
  return {
    summary: detail ? `Overwrite ${shown} (${linesText(lines)})` : `Write ${shown} (unchanged)`,
    detail: detail || '(no changes)',
    state: state.snapshot,
    ...fields,
    ...reviewOf(state.text, content),
  };
}

export function writeTool(): ToolDefinition {
  return {
    schema: {
      name: 'write',
      description:
        'Create a file or replace its whole content (parent folders are created). Prefer edit for changing part of an existing file. The person sees a diff before it is written.',
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'Workspace-relative path of the file.' },
          content: { type: 'string', description: 'The complete new content (UTF-8 text).' },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
    },
    approval: 'ask',
    external: false,
    prepare: prepareWrite,
    async execute(args, ctx, prepared): Promise<ToolResult> {
      return guard(async () => {
        const path = (await writeTarget('write', args, ctx.fs)).path.path;
        const { content, note } = contentToWrite(ctx, stringArg('write', args, 'content')!, path);
        const ready = prepared ?? (await prepareWrite(args, ctx));
        const snapshot: FileSnapshot | undefined = isSnapshot(ready.state) ? ready.state : undefined;
        if (snapshot) await assertUnchanged(ctx.fs, snapshot);
        await ctx.fs.writeText(path, content);
        const bytes = new TextEncoder().encode(content).length;
        // The applied diff needs the text replaced: prepare kept it for review (files up to REVIEW_MAX_CHARS), and
        // the conflict check just proved the file still holds it. A new file gets none (its content is the call's
        // own argument), nor does a binary or larger file.
        const before = ready.review?.before;
        const diff = typeof before === 'string' ? appliedDiffNote(before, content, path) : '';
        return { output: `${snapshot?.sha256 === null ? 'Created' : 'Wrote'} ${path} (${bytes} bytes).${note}${diff}` };
      });
    },
  };
}

const linesText = (n: number) => `${n} ${n === 1 ? 'line' : 'lines'}`;
