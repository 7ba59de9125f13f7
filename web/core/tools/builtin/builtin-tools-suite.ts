// The behaviour suite every built-in file tool joins on both WorkspaceFs backends: builtin-tools.test.ts runs it
// over a Node temp folder, builtin-tools.browser.test.ts over an OPFS folder in Chromium. Test-only.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_APPROVAL, defaultDecision } from '../../approval';
import type { WorkspaceAccess, WorkspaceFs } from '../../contracts/fs';
import type { ToolContext, ToolDefinition, ToolResult } from '../../contracts/tools';
import { coreFileTools, editTool, globTool, readTool, searchTool, viewImageTool, writeTool } from './index';
import { NESTED_IGNORE_EXPECTED, NESTED_IGNORE_FILES, NESTED_IGNORE_PATHS } from './nested-ignore-case';

export interface ToolsHarness {
  open(access: WorkspaceAccess): Promise<WorkspaceFs>;
  cleanup(): Promise<void>;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

export function defineBuiltinToolsSuite(backend: string, makeHarness: () => Promise<ToolsHarness>): void {
  describe(`built-in tools: ${backend}`, () => {
    let harness: ToolsHarness;
    let fs: WorkspaceFs;
    let ctx: ToolContext;
    beforeEach(async () => {
      harness = await makeHarness();
      fs = await harness.open('read-write');
      ctx = { fs, workspaceId: 'ws-test', callId: 'call-1', signal: new AbortController().signal };
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    const run = (tool: ToolDefinition, args: Record<string, unknown>): Promise<ToolResult> => tool.execute(args, ctx);
    /** prepare → execute as the loop does; a prepare error becomes the tool error the loop would report. */
    const approved = async (tool: ToolDefinition, args: Record<string, unknown>, on = ctx): Promise<ToolResult> => {
      let prepared;
      try {
        prepared = await tool.prepare!(args, on);
      } catch (error) {
        const code = (error as { code: string }).code;
        return { output: (error as Error).message, error: true, code };
      }
      return tool.execute(args, on, prepared);
    };

    it('offers only read and view_image without asking; every other file tool asks (seed 000 §5)', () => {
      const decisions = Object.fromEntries(
        coreFileTools().map((t) => [t.schema.name, defaultDecision(t, DEFAULT_APPROVAL)]),
      );
      expect(decisions).toEqual({
        read: 'allow',
        view_image: 'allow',
        write: 'ask',
        edit: 'ask',
        glob: 'ask',
        search: 'ask',
      });
      expect(coreFileTools().every((t) => t.external === false)).toBe(true);
    });

    describe('read', () => {
      it('returns numbered lines and continues from an offset', async () => {
        await fs.writeText('src/a.txt', 'one\ntwo\r\nthree\nfour\n');
        expect((await run(readTool(), { path: 'src/a.txt' })).output).toBe(
          '     1\tone\n     2\ttwo\n     3\tthree\n     4\tfour',
        );
        const part = await run(readTool(), { path: 'src/a.txt', offset: 2, limit: 2 });
        expect(part.output).toBe('     2\ttwo\n     3\tthree\n[showing lines 2-3 of 4; continue with offset 4]');
      });

      it('cuts long lines and long outputs and says where to continue', async () => {
        await fs.writeText('long.txt', `${'x'.repeat(50)}\nshort\n${'y'.repeat(30)}\n`);
        const cut = await run(readTool({ maxLineChars: 10 }), { path: 'long.txt' });
        expect(cut.output.split('\n')[0]).toBe(`     1\t${'x'.repeat(10)} [line cut at 10 of 50 characters]`);
        const capped = await run(readTool({ maxOutputChars: 75 }), { path: 'long.txt' });
        expect(capped.output).toContain('[showing lines 1-2 of 3; continue with offset 3]');
      });

      it('says a file is empty and refuses an offset past the end', async () => {
        await fs.writeText('empty.txt', '');
        expect((await run(readTool(), { path: 'empty.txt' })).output).toBe('(empty.txt is empty)');
        await fs.writeText('two.txt', 'a\nb\n');
        const past = await run(readTool(), { path: 'two.txt', offset: 5 });
        expect([past.error, past.code]).toEqual([true, 'E_READ_OFFSET']);
      });

      it('refuses binary files, invalid UTF-8 and files over the size cap with their own codes', async () => {
        await fs.writeBytes('bin.dat', new Uint8Array([65, 0, 66]));
        await fs.writeBytes('latin1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
        await fs.writeText('big.txt', 'z'.repeat(200));
        expect((await run(readTool(), { path: 'bin.dat' })).code).toBe('E_READ_BINARY');
        expect((await run(readTool(), { path: 'latin1.txt' })).code).toBe('E_READ_BINARY');
        const big = await run(readTool({ maxFileBytes: 100 }), { path: 'big.txt' });
        expect([big.code, big.error]).toEqual(['E_READ_TOO_LARGE', true]);
        expect(big.output).toMatch(/200 bytes, more than read accepts \(100\)\. Use search/);
      });

      it('refuses folders, missing files and paths that leave the workspace', async () => {
        await fs.mkdir('dir');
        expect((await run(readTool(), { path: 'dir' })).code).toBe('E_READ_IS_DIRECTORY');
        expect((await run(readTool(), { path: 'nope.txt' })).code).toBe('E_FS_NOT_FOUND');
        expect((await run(readTool(), { path: '../outside.txt' })).code).toBe('E_PATH_ESCAPE');
        expect((await run(readTool(), { path: '/etc/passwd' })).code).toBe('E_PATH_ABSOLUTE');
        expect((await run(readTool(), { path: 'a.txt', limit: 0 })).code).toBe('E_TOOL_ARGUMENTS');
      });
    });

    describe('write', () => {
      it('creates a file with parent folders and shows the whole file as added', async () => {
        const prepared = await writeTool().prepare!({ path: 'new/dir/f.txt', content: 'hello\nworld\n' }, ctx);
        expect(prepared.summary).toBe('Create new/dir/f.txt (2 lines)');
        expect(prepared.detail).toBe('--- /dev/null\n+++ b/new/dir/f.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n');
        const result = await writeTool().execute({ path: 'new/dir/f.txt', content: 'hello\nworld\n' }, ctx, prepared);
        expect(result.output).toBe('Created new/dir/f.txt (12 bytes).');
        expect(await fs.readText('new/dir/f.txt')).toBe('hello\nworld\n');
      });

      it('shows the diff against the current content before overwriting', async () => {
        await fs.writeText('f.txt', 'a\nb\nc\n');
        const prepared = await writeTool().prepare!({ path: 'f.txt', content: 'a\nB\nc\n' }, ctx);
        expect(prepared.detail).toBe('--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
        await writeTool().execute({ path: 'f.txt', content: 'a\nB\nc\n' }, ctx, prepared);
        expect(await fs.readText('f.txt')).toBe('a\nB\nc\n');
      });

      it('refuses with E_EDIT_CONFLICT when the file changed after approval was asked, and keeps the change', async () => {
        await fs.writeText('f.txt', 'v1\n');
        const prepared = await writeTool().prepare!({ path: 'f.txt', content: 'mine\n' }, ctx);
        await fs.writeText('f.txt', 'someone else\n');
        const result = await writeTool().execute({ path: 'f.txt', content: 'mine\n' }, ctx, prepared);
        expect([result.error, result.code]).toEqual([true, 'E_EDIT_CONFLICT']);
        expect(await fs.readText('f.txt')).toBe('someone else\n');
        // A file created meanwhile is a conflict too.
        const create = await writeTool().prepare!({ path: 'g.txt', content: 'x' }, ctx);
        await fs.writeText('g.txt', 'raced');
        expect((await writeTool().execute({ path: 'g.txt', content: 'x' }, ctx, create)).code).toBe('E_EDIT_CONFLICT');
      });

      it('writes the person’s edited content under the same checks: a changed file is a conflict, a read-only workspace refuses', async () => {
        await fs.writeText('p.txt', 'v1\n');
        const prepared = await writeTool().prepare!({ path: 'p.txt', content: 'model\n' }, ctx);
        expect(prepared.review).toEqual({ before: 'v1\n', after: 'model\n' });
        const mine = { ...ctx, approved: { content: 'person\n' } };
        const result = await writeTool().execute({ path: 'p.txt', content: 'model\n' }, mine, prepared);
        expect(result.output).toContain('Wrote p.txt (7 bytes). The person changed the content before allowing it');
        expect(await fs.readText('p.txt')).toBe('person\n');
        const again = await writeTool().prepare!({ path: 'p.txt', content: 'model\n' }, ctx);
        await fs.writeText('p.txt', 'raced\n');
        expect((await writeTool().execute({ path: 'p.txt', content: 'model\n' }, mine, again)).code).toBe(
          'E_EDIT_CONFLICT',
        );
        expect(await fs.readText('p.txt')).toBe('raced\n');
        const readOnly = await harness.open('read');
        expect((await writeTool().execute({ path: 'q.txt', content: 'x' }, { ...mine, fs: readOnly })).code).toBe(
          'E_FS_READ_ONLY',
        );
      });

      it('cannot write in a read-only workspace or over a folder', async () => {
        await fs.mkdir('folder');
        expect((await approved(writeTool(), { path: 'folder', content: 'x' })).code).toBe('E_WRITE_IS_DIRECTORY');
        const readOnly = await harness.open('read');
        expect((await approved(writeTool(), { path: 'x.txt', content: 'x' }, { ...ctx, fs: readOnly })).code).toBe(
          'E_FS_READ_ONLY',
        );
      });
    });

    describe('edit', () => {
      it('replaces a unique match and shows the diff before applying it', async () => {
        await fs.writeText('m.ts', 'const a = 1;\nconst b = 2;\n');
        const args = { path: 'm.ts', old_string: 'const b = 2;', new_string: 'const b = 3; // $& stays literal' };
        const prepared = await editTool().prepare!(args, ctx);
        expect(prepared.summary).toBe('Edit m.ts (1 replacement)');
        expect(prepared.detail).toBe(
          '--- a/m.ts\n+++ b/m.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3; // $& stays literal\n',
        );
        // The result ends with the diff of what was written, so the session log keeps the change for the chat.
        expect((await editTool().execute(args, ctx, prepared)).output).toBe(
          'Edited m.ts: 1 replacement.\nDiff of what was written:\n' +
            '--- a/m.ts\n+++ b/m.ts\n@@ -1,2 +1,2 @@\n const a = 1;\n-const b = 2;\n+const b = 3; // $& stays literal',
        );
        expect(await fs.readText('m.ts')).toBe('const a = 1;\nconst b = 3; // $& stays literal\n');
      });

      it('refuses no match and several matches with what to do, and replaces all when asked', async () => {
        await fs.writeText('m.txt', 'x y x\n');
        const none = await approved(editTool(), { path: 'm.txt', old_string: 'z', new_string: 'w' });
        expect([none.code, none.output]).toEqual([
          'E_EDIT_NOT_FOUND',
          expect.stringContaining('must match the file exactly') as unknown,
        ]);
        const many = await run(editTool(), { path: 'm.txt', old_string: 'x', new_string: 'w' });
        expect([many.code, many.output]).toEqual([
          'E_EDIT_AMBIGUOUS',
          expect.stringContaining('occurs 2 times in m.txt') as unknown,
        ]);
        const all = await approved(editTool(), { path: 'm.txt', old_string: 'x', new_string: 'w', replace_all: true });
        expect(all.output).toBe(
          'Edited m.txt: 2 replacements.\nDiff of what was written:\n--- a/m.txt\n+++ b/m.txt\n@@ -1,1 +1,1 @@\n-x y x\n+w y w',
        );
        expect(await fs.readText('m.txt')).toBe('w y w\n');
        expect((await run(editTool(), { path: 'm.txt', old_string: 'w', new_string: 'w' })).code).toBe(
          'E_TOOL_ARGUMENTS',
        );
        expect((await run(editTool(), { path: 'missing.txt', old_string: 'a', new_string: 'b' })).code).toBe(
          'E_FS_NOT_FOUND',
        );
      });

      it('refuses with E_EDIT_CONFLICT when the file changed between prepare and execute', async () => {
        await fs.writeText('c.txt', 'alpha\nbeta\n');
        const args = { path: 'c.txt', old_string: 'beta', new_string: 'gamma' };
        const prepared = await editTool().prepare!(args, ctx);
        await fs.writeText('c.txt', 'alpha\nbeta\ndelta\n');
        const result = await editTool().execute(args, ctx, prepared);
        expect([result.error, result.code]).toEqual([true, 'E_EDIT_CONFLICT']);
        expect(await fs.readText('c.txt')).toBe('alpha\nbeta\ndelta\n');
        // Removing the matched text meanwhile is reported as the conflict it is, not as "not found".
        const again = await editTool().prepare!({ path: 'c.txt', old_string: 'delta', new_string: 'x' }, ctx);
        await fs.writeText('c.txt', 'alpha\n');
        expect(
          (await editTool().execute({ path: 'c.txt', old_string: 'delta', new_string: 'x' }, ctx, again)).code,
        ).toBe('E_EDIT_CONFLICT');
      });

      it('writes the whole file the person approved instead of its replacement, after the same conflict check', async () => {
        await fs.writeText('e.txt', 'alpha\nbeta\n');
        const args = { path: 'e.txt', old_string: 'beta', new_string: 'gamma' };
        const prepared = await editTool().prepare!(args, ctx);
        expect(prepared.review).toEqual({ before: 'alpha\nbeta\n', after: 'alpha\ngamma\n' });
        const mine = { ...ctx, approved: { content: 'alpha\ndelta\n' } };
        const result = await editTool().execute(args, mine, prepared);
        expect(result.output).toContain('-gamma\n+delta');
        expect(await fs.readText('e.txt')).toBe('alpha\ndelta\n');
        const again = await editTool().prepare!({ path: 'e.txt', old_string: 'delta', new_string: 'x' }, ctx);
        await fs.writeText('e.txt', 'alpha\ndelta\nmore\n');
        expect(
          (await editTool().execute({ path: 'e.txt', old_string: 'delta', new_string: 'x' }, mine, again)).code,
        ).toBe('E_EDIT_CONFLICT');
        expect(await fs.readText('e.txt')).toBe('alpha\ndelta\nmore\n');
      });

      it('matches "\\n" text in a CRLF file and keeps its line ends', async () => {
        await fs.writeText('w.txt', 'one\r\ntwo\r\nthree\r\n');
        await approved(editTool(), { path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos' });
        expect(await fs.readText('w.txt')).toBe('uno\r\ndos\r\nthree\r\n');
      });
    });

    describe('glob', () => {
      beforeEach(async () => {
        for (const p of [
          'src/a.ts',
          'src/b.js',
          'src/deep/c.ts',
          'src/deep/d.md',
          'README.md',
          '.hidden/x.ts',
          'node_modules/pkg/i.ts',
          'dist/out.ts',
        ]) {
          await fs.writeText(p, 'x\n');
        }
      });

      it('matches **, *, ?, {a,b} and classes, skipping hidden and build folders unless named', async () => {
        const g = async (pattern: string) => (await run(globTool(), { pattern })).output;
        expect(await g('**/*.ts')).toBe('src/a.ts\nsrc/deep/c.ts');
        expect(await g('src/*.{ts,js}')).toBe('src/a.ts\nsrc/b.js');
        expect(await g('src/deep/[a-c].?s')).toBe('src/deep/c.ts');
        expect(await g('*.md')).toBe('README.md');
        expect(await g('node_modules/**/*.ts')).toBe('node_modules/pkg/i.ts');
        expect(await g('.hidden/*')).toBe('.hidden/x.ts');
        expect(await g('nothing/**')).toBe('No files match nothing/** (nothing is not a folder).');
        expect((await run(globTool(), { pattern: 'src/{a' })).code).toBe('E_GLOB_PATTERN');
      });

      it('caps results and says when the walk limit cut the listing', async () => {
        expect((await run(globTool({ maxResults: 1 }), { pattern: '**/*.ts' })).output).toBe(
          'src/a.ts\n[more paths not shown (listed the first 1); use a narrower pattern]',
        );
        const walked = await run(globTool({ maxFiles: 2 }), { pattern: '**' });
        expect(walked.output).toContain('[stopped after 2 files: results are incomplete; narrow the path or pattern]');
        const entries = await run(globTool({ maxEntries: 3 }), { pattern: '**' });
        expect(entries.output).toContain('[stopped after 3 folder entries');
      });
    });

    describe('search', () => {
      beforeEach(async () => {
        await fs.writeText('src/app.ts', 'import x from "y";\nexport function Hello() {}\n\tconst hello = 1;\n');
        await fs.writeText('src/util.js', 'function hello() { return 2; }\n');
        await fs.writeText('docs/guide.md', 'Say hello to the world.\n');
        await fs.writeText('.git/config', 'hello hidden\n');
        await fs.writeText('node_modules/m/index.js', 'hello dependency\n');
        await fs.writeBytes('img.bin', new Uint8Array([104, 101, 108, 108, 111, 0, 1]));
      });
      const s = async (args: Record<string, unknown>, tool = searchTool()) => (await run(tool, args)).output;

      it('finds literal text as path:line: snippet, smart case, skipping hidden, build output and binary files', async () => {
        expect(await s({ pattern: 'hello' })).toBe(
          'docs/guide.md:1: Say hello to the world.\nsrc/app.ts:2: export function Hello() {}\nsrc/app.ts:3: const hello = 1;\nsrc/util.js:1: function hello() { return 2; }\n[skipped files: 1 binary]',
        );
        expect(await s({ pattern: 'Hello' })).toBe(
          'src/app.ts:2: export function Hello() {}\n[skipped files: 1 binary]',
        );
        expect(await s({ pattern: 'HELLO', case_sensitive: false, path: 'src', glob: '*.js' })).toBe(
          'src/util.js:1: function hello() { return 2; }',
        );
      });

      it('searches regular expressions, one file, and a glob on whole paths', async () => {
        expect(await s({ pattern: 'function \\w+\\(\\)', regex: true, glob: 'src/**/*.ts' })).toBe(
          'src/app.ts:2: export function Hello() {}',
        );
        expect(await s({ pattern: 'world', path: 'docs/guide.md' })).toBe('docs/guide.md:1: Say hello to the world.');
        expect(await s({ pattern: 'dependency', path: 'node_modules' })).toBe(
          'node_modules/m/index.js:1: hello dependency',
        );
        expect(await s({ pattern: 'absent', path: 'src' })).toBe('No matches for "absent" in src.');
      });

      it('runs patterns that hang a backtracking engine in linear time, and refuses unsupported or invalid ones', async () => {
        await fs.writeText('min.js', `${'ab'.repeat(1999)}\n`);
        for (const slow of ['(a+)+$', '(a|ab)*c', '\\w+\\s*\\w+\\s*=', 'a.*b.*c.*d']) {
          expect(await s({ pattern: slow, regex: true, path: 'min.js' }), slow).toBe(
            `No matches for ${JSON.stringify(slow)} in min.js.`,
          );
        }
        for (const bad of ['(\\w)\\1', '(?<=a)b', 'x(?=y)']) {
          expect((await run(searchTool(), { pattern: bad, regex: true })).code, bad).toBe('E_SEARCH_REGEX_UNSUPPORTED');
        }
        expect((await run(searchTool(), { pattern: '(unclosed', regex: true })).code).toBe('E_SEARCH_REGEX_INVALID');
        expect((await run(searchTool(), { pattern: 'p'.repeat(257) })).code).toBe('E_SEARCH_PATTERN_TOO_LONG');
        expect(await s({ pattern: '^\\s*const (h|x)\\w*\\b', regex: true })).toBe(
          'src/app.ts:3: const hello = 1;\n[skipped files: 1 binary]',
        );
      });

      it('bounds matches, output and the walk, and skips huge files, saying so each time', async () => {
        await fs.writeText('big.txt', `hello\n${'pad\n'.repeat(100)}`);
        expect(await s({ pattern: 'hello' }, searchTool({ maxMatches: 2 }))).toBe(
          'big.txt:1: hello\ndocs/guide.md:1: Say hello to the world.\n[more matches not shown (output limited to 2); narrow the pattern, path or glob]\n[skipped files: 1 binary]',
        );
        expect(await s({ pattern: 'hello' }, searchTool({ maxFileBytes: 100 }))).toContain(
          '[skipped files: 1 over 100 bytes, 1 binary]',
        );
        expect(await s({ pattern: 'hello' }, searchTool({ maxFiles: 2 }))).toContain(
          '[stopped after 2 files: results are incomplete',
        );
        expect(await s({ pattern: 'hello' }, searchTool({ maxOutputChars: 30 }))).toContain(
          '[more matches not shown (output limited to 1)',
        );
        let t = 0;
        expect(await s({ pattern: 'hello' }, searchTool({ timeLimitMs: 5, now: () => (t += 10) }))).toContain(
          '[stopped after 5 ms: results are incomplete',
        );
      });
    });

    describe('glob and search honour .gitignore and .ignore', () => {
      beforeEach(async () => {
        await fs.writeText('.gitignore', '# build logs\n*.log\n!keep.log\n/only-root.txt\nbuild-out/\nsecret\n');
        await fs.writeText('.ignore', 'notes.md\n');
        await fs.writeText('sub/.gitignore', '!*.log\nlocal.txt\n');
        const files = [
          'a.log',
          'keep.log',
          'local.txt',
          'notes.md',
          'only-root.txt',
          'build-out/x.txt',
          'sub/b.log',
          'sub/build-out',
          'sub/local.txt',
          'sub/only-root.txt',
          'sub/secret',
          '.git/config',
        ];
        for (const p of files) await fs.writeText(p, 'needle\n');
      });
      const paths = (output: string) => output.split('\n').map((line) => line.replace(/:1: needle$/, ''));

      it('leaves out what the rules exclude: negation, anchored, dir-only, nested files for their subtree, .ignore', async () => {
        const kept = ['keep.log', 'local.txt', 'sub/b.log', 'sub/build-out', 'sub/only-root.txt'];
        expect(paths((await run(searchTool(), { pattern: 'needle' })).output)).toEqual(kept);
        expect((await run(globTool(), { pattern: '**' })).output).toBe(kept.join('\n'));
      });

      it('includes ignored files when asked, but never walks .git', async () => {
        const all = [
          'a.log',
          'keep.log',
          'local.txt',
          'notes.md',
          'only-root.txt',
          'build-out/x.txt',
          'sub/b.log',
          'sub/build-out',
          'sub/local.txt',
          'sub/only-root.txt',
          'sub/secret',
        ];
        expect(paths((await run(searchTool(), { pattern: 'needle', include_ignored: true })).output)).toEqual(all);
        expect((await run(globTool(), { pattern: '**', include_ignored: true })).output).toBe(all.join('\n'));
        expect((await run(globTool(), { pattern: '.git/**', include_ignored: true })).output).toBe(
          'No files match .git/**.',
        );
        expect((await run(searchTool(), { pattern: 'needle', path: '.git' })).output).toBe(
          'No matches for "needle" in .git.',
        );
      });

      it('applies the rules of folders above a searched path, and searches a path that is itself ignored', async () => {
        expect(paths((await run(searchTool(), { pattern: 'needle', path: 'sub' })).output)).toEqual([
          'sub/b.log',
          'sub/build-out',
          'sub/only-root.txt',
        ]);
        expect(paths((await run(searchTool(), { pattern: 'needle', path: 'build-out' })).output)).toEqual([
          'build-out/x.txt',
        ]);
      });

      it('says how many paths were excluded when nothing matched', async () => {
        const note =
          '[6 files or folders excluded by .gitignore/.ignore were not walked; set include_ignored to true to include them]';
        expect((await run(searchTool(), { pattern: 'absent' })).output).toBe(`No matches for "absent".\n${note}`);
        expect((await run(globTool(), { pattern: '**/*.log' })).output).toBe('keep.log\nsub/b.log');
        expect((await run(globTool(), { pattern: '**/secret' })).output).toBe(`No files match **/secret.\n${note}`);
      });

      it('does not apply an ignore file over 256 KiB, over 1000 rules or with a costly rule, and names it', async () => {
        await fs.writeText('.gitignore', Array.from({ length: 1001 }, (_, i) => `rule${i}`).join('\n') + '\n*.log\n');
        await fs.writeText('sub/.ignore', `local.txt\n#${'x'.repeat(300 * 1024)}\n`);
        await fs.writeText('sub/deeper/.gitignore', 'a/**/b/**/c/**/d\n*.log\n');
        await fs.writeText('sub/deeper/c.log', 'needle\n');
        const out = (await run(searchTool(), { pattern: 'needle', glob: '*.log' })).output;
        expect(out).toBe(
          'a.log:1: needle\nkeep.log:1: needle\nsub/b.log:1: needle\nsub/deeper/c.log:1: needle\n' +
            '[ignore files not applied (over 262144 bytes, over 1000 rules, or a rule with over 2 "**"): .gitignore, sub/.ignore, sub/deeper/.gitignore; the files they name were walked]',
        );
      });
    });

    describe('nested .gitignore negations, as git applies them (nested-ignore-case.ts; checked against git in nested-ignore-vs-git.test.ts)', () => {
      beforeEach(async () => {
        for (const [p, text] of Object.entries(NESTED_IGNORE_FILES)) await fs.writeText(p, text);
        for (const p of NESTED_IGNORE_PATHS) await fs.writeText(p, 'needle\n');
      });
      const paths = (output: string) => output.split('\n').map((line) => line.replace(/:1: needle$/, ''));

      it('re-includes what a deeper !dir/ or !name re-includes, but nothing below a folder that stays excluded', async () => {
        expect((await run(globTool(), { pattern: '**' })).output).toBe(NESTED_IGNORE_EXPECTED.all.join('\n'));
        expect(paths((await run(searchTool(), { pattern: 'needle' })).output)).toEqual(NESTED_IGNORE_EXPECTED.all);
      });

      it('a nested !/node_modules/ re-includes that folder only, and a search below the root applies the rules above it', async () => {
        expect((await run(globTool(), { pattern: '**/node_modules/**' })).output).toBe(
          NESTED_IGNORE_EXPECTED.nodeModules.join('\n'),
        );
        expect(paths((await run(searchTool(), { pattern: 'needle', path: 'pkg/sub' })).output)).toEqual(
          NESTED_IGNORE_EXPECTED.pkgSub,
        );
      });
    });

    describe('view_image', () => {
      it('attaches a PNG as a base64 data URL, recognised by its signature', async () => {
        await fs.writeBytes('pics/logo.dat', PNG);
        const result = await run(viewImageTool(), { path: 'pics/logo.dat' });
        expect(result.output).toBe('Image attached: pics/logo.dat (image/png, 16 bytes).');
        expect(result.images).toEqual([
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==' } },
        ]);
      });

      it('refuses other formats and images over the cap', async () => {
        await fs.writeText('fake.png', 'not really a png');
        expect((await run(viewImageTool(), { path: 'fake.png' })).code).toBe('E_IMAGE_UNSUPPORTED');
        await fs.writeBytes('big.png', new Uint8Array([...PNG, ...new Uint8Array(100)]));
        const big = await run(viewImageTool({ maxBytes: 64 }), { path: 'big.png' });
        expect([big.code, big.images]).toEqual(['E_IMAGE_TOO_LARGE', undefined]);
        expect((await run(viewImageTool(), { path: 'none.png' })).code).toBe('E_FS_NOT_FOUND');
      });
    });
  });
}
