// A file that starts with a byte order mark (common for C#/Visual Studio and some Windows editors) keeps it when the
// agent edits another part of it: the decoder keeps the BOM as a character, so the edit writes it back unchanged.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createNodeWorkspaceFs } from '../../../../plugin-host/fs/node';
import type { ToolContext } from '../../contracts/tools';
import { editTool, readTool } from './index';

let base: string;
let ctx: ToolContext;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'i-bom-'));
  await writeFile(
    join(base, 'Program.cs'),
    Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from('class A {\n  int x = 1;\n}\n')]),
  );
  ctx = {
    fs: await createNodeWorkspaceFs({ root: base, access: 'read-write' }),
    workspaceId: 'ws',
    callId: 'c1',
    signal: new AbortController().signal,
  };
});
afterEach(() => rm(base, { recursive: true, force: true }));

it('an edit in a BOM-prefixed file keeps the BOM and changes only the edited text', async () => {
  const result = await editTool().execute(
    { path: 'Program.cs', old_string: 'int x = 1;', new_string: 'int x = 2;' },
    ctx,
    undefined,
  );
  expect(result.error).toBeFalsy();
  const bytes = await readFile(join(base, 'Program.cs'));
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(bytes.subarray(3).toString('utf8')).toBe('class A {\n  int x = 2;\n}\n');
});

it('read still shows the first line of a BOM-prefixed file', async () => {
  const result = await readTool().execute({ path: 'Program.cs' }, ctx, undefined);
  expect(result.error).toBeFalsy();
  expect(result.output).toContain('class A {');
});
