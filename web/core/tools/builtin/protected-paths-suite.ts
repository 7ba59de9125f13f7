// Protected paths (issue 13) for the writing tools, on both WorkspaceFs backends: joined by builtin-tools.test.ts
// (Node temp folder) and builtin-tools.browser.test.ts (OPFS in Chromium). The approval modes around these tools
// are covered through the real loop in web/core/approval/protected-paths.test.ts. Test-only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GIT_DETOURS } from '../../../../plugin-host/fs/workspace-fs-suite';
import { protectWrites, type WorkspaceFs } from '../../contracts/fs';
import type { PreparedCall, ToolContext, ToolDefinition, ToolResult } from '../../contracts/tools';
import type { ToolsHarness } from './builtin-tools-suite';
import { editTool, writeTool } from './index';

const CONFIG = '[core]\n\trepositoryformatversion = 0\n';
const HOSTILE = '[core]\n\tfsmonitor = "touch pwned"\n';

export function defineProtectedPathsSuite(backend: string, makeHarness: () => Promise<ToolsHarness>): void {
  describe(`write and edit on protected paths: ${backend}`, () => {
    let harness: ToolsHarness;
    let fs: WorkspaceFs;
    const ctxOf = (on: WorkspaceFs): ToolContext => ({
      fs: on,
      workspaceId: 'ws-test',
      callId: 'call-1',
      signal: new AbortController().signal,
    });
    beforeEach(async () => {
      harness = await makeHarness();
      fs = await harness.open('read-write');
      await fs.writeText('.git/config', CONFIG);
      await fs.writeText('.git/HEAD', 'ref: refs/heads/main\n');
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    /** What prepare throws (its code), or the PreparedCall. */
    const prepare = async (
      tool: ToolDefinition,
      args: Record<string, unknown>,
      on = fs,
    ): Promise<PreparedCall | string> => {
      try {
        return await tool.prepare!(args, ctxOf(on));
      } catch (error) {
        return (error as { code: string }).code;
      }
    };
    const execute = (
      tool: ToolDefinition,
      args: Record<string, unknown>,
      on = fs,
      prepared?: PreparedCall,
    ): Promise<ToolResult> => tool.execute(args, ctxOf(on), prepared);

    it('refuses write and edit of every detour into .git in prepare and again in execute, leaving .git as it was', async () => {
      for (const raw of GIT_DETOURS) {
        const w = { path: raw, content: HOSTILE };
        const e = { path: raw, old_string: 'repositoryformatversion = 0', new_string: 'fsmonitor = "touch pwned"' };
        expect([raw, await prepare(writeTool(), w)]).toEqual([raw, 'E_PATH_PROTECTED']);
        expect([raw, await prepare(editTool(), e)]).toEqual([raw, 'E_PATH_PROTECTED']);
        // execute without prepare (a caller that skipped it) and with a prepared call from an allowed setting
        expect([raw, (await execute(writeTool(), w)).code]).toEqual([raw, 'E_PATH_PROTECTED']);
        expect([raw, (await execute(editTool(), e)).code]).toEqual([raw, 'E_PATH_PROTECTED']);
      }
      const stolen = await prepare(
        writeTool(),
        { path: '.git/config', content: HOSTILE },
        protectWrites(fs, { allowGitWrites: true }),
      );
      expect(
        (await execute(writeTool(), { path: '.git/config', content: HOSTILE }, fs, stolen as PreparedCall)).code,
      ).toBe('E_PATH_PROTECTED');
      expect(await fs.readText('.git/config')).toBe(CONFIG);
      expect(await fs.readText('.git/HEAD')).toBe('ref: refs/heads/main\n');
    });

    it('writes and edits inside .git when the workspace allows it, on the normalised path', async () => {
      const allowed = protectWrites(fs, { allowGitWrites: true });
      const args = {
        path: 'notes.md/./././../.git/config',
        old_string: 'repositoryformatversion = 0',
        new_string: 'bare = false',
      };
      const prepared = (await prepare(editTool(), args, allowed)) as PreparedCall;
      expect(prepared.target).toEqual({ path: '.git/config', raw: 'notes.md/./././../.git/config' });
      expect((await execute(editTool(), args, allowed, prepared)).output).toMatch(
        /^Edited \.git\/config: 1 replacement\.\nDiff of what was written:\n--- a\/\.git\/config\n/,
      );
      expect(await fs.readText('.git/config')).toBe('[core]\n\tbare = false\n');
      const write = await execute(writeTool(), { path: '.GIT/hooks/../info/exclude', content: 'x\n' }, allowed);
      expect(write.error).toBeUndefined();
    });

    it('shows the normalised path in summary, diff header and result, with "raw → normalised" when they differ', async () => {
      await fs.writeText('docs/readme.md', 'old\n');
      const raw = `notes.md/${'./'.repeat(60)}../docs/readme.md`;
      const prepared = (await prepare(writeTool(), { path: raw, content: 'new\n' })) as PreparedCall;
      expect(prepared.target).toEqual({ path: 'docs/readme.md', raw });
      expect(prepared.summary).toMatch(
        /^Overwrite "notes\.md\/\.\/\.\/.*…" \(\d+ characters\) → docs\/readme\.md \(1 line\)$/,
      );
      expect(prepared.summary.length).toBeLessThan(140);
      expect(prepared.detail!.split('\n').slice(0, 2)).toEqual(['--- a/docs/readme.md', '+++ b/docs/readme.md']);
      expect((await execute(writeTool(), { path: raw, content: 'new\n' }, fs, prepared)).output).toBe(
        'Wrote docs/readme.md (4 bytes).\nDiff of what was written:\n--- a/docs/readme.md\n+++ b/docs/readme.md\n@@ -1,1 +1,1 @@\n-old\n+new',
      );
      const plain = (await prepare(editTool(), {
        path: 'docs/readme.md',
        old_string: 'new',
        new_string: 'newer',
      })) as PreparedCall;
      expect([plain.summary, plain.target]).toEqual([
        'Edit docs/readme.md (1 replacement)',
        { path: 'docs/readme.md' },
      ]);
      const created = (await prepare(writeTool(), { path: './src/../src/new.ts', content: 'x\n' })) as PreparedCall;
      expect(created.detail!.split('\n').slice(0, 2)).toEqual(['--- /dev/null', '+++ b/src/new.ts']);
    });

    it('marks writes to files that run code on open as always-ask, with the reason, and still writes them once approved', async () => {
      await fs.writeText('.vscode/settings.json', '{}\n');
      const edit = (await prepare(editTool(), {
        path: '.vscode/settings.json',
        old_string: '{}',
        new_string: '{"a": 1}',
      })) as PreparedCall;
      expect(edit.alwaysAsk).toEqual({ reason: 'vscode', text: expect.stringContaining('VS Code') });
      const write = (await prepare(writeTool(), {
        path: '.github/workflows/ci.yml',
        content: 'on: push\n',
      })) as PreparedCall;
      expect(write.alwaysAsk?.reason).toBe('ci');
      expect(
        ((await prepare(writeTool(), { path: 'src/a.ts', content: '' })) as PreparedCall).alwaysAsk,
      ).toBeUndefined();
      await execute(editTool(), { path: '.vscode/settings.json', old_string: '{}', new_string: '{"a": 1}' }, fs, edit);
      expect(await fs.readText('.vscode/settings.json')).toBe('{"a": 1}\n');
    });

    it('refuses to create a file whose name hides a character, naming the code point', async () => {
      const result = await execute(writeTool(), { path: 'invoice\u202Efdp.exe', content: 'x' });
      expect(result.code).toBe('E_PATH_INVISIBLE_CHAR');
      expect(result.output).toContain('U+202E');
      expect(await fs.list('')).toHaveLength(1);
    });
  });
}
