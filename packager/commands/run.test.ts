// `hplugin run` in-process: the real example packages (built by `npm run plugins`), hostile fixtures packed with the
// shared packer, and the exit codes and stderr lines of the issue.
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hostileWasm, hostCall, recorderWasm } from '../../plugin-host/fixtures/wat/wat';
import { packFixture } from '../../plugin-host/runtime/test-kit';
import { defaultWorkspaceId } from './run';
import { hplugin, useRunDirs } from './run-test-kit';

const examples = join(import.meta.dirname, '../../dist/plugins');
const example = (name: string) => join(examples, `${name}.hplugin.zip`);
const haveExamples = ['word-count', 'notes', 'replace-text', 'list-tree'].every((n) => existsSync(example(n)));

const dirs = useRunDirs('hplugin-run-');

async function packed(wasm: Uint8Array, options: Parameters<typeof packFixture>[1] = {}): Promise<string> {
  const file = join(dirs.dir, 'fixture.hplugin.zip');
  await writeFile(file, await packFixture(wasm, options));
  return file;
}

describe.skipIf(!haveExamples)('hplugin run with the Rust examples (npm run plugins)', () => {
  it('word-count reads a file and prints its output verbatim', async () => {
    await writeFile(join(dirs.ws, 'notes.txt'), 'hello brave new world');
    const r = await hplugin(
      example('word-count'),
      '--tool',
      'count_words',
      '--args',
      '{"path":"notes.txt"}',
      '--workspace',
      dirs.ws,
    );
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toMatchObject({ words: 4 });
  });

  it('replace-text is refused a write without --allow-write, and writes with it', async () => {
    await writeFile(join(dirs.ws, 'a.txt'), 'one two one');
    const args = [
      '--tool',
      'replace_text',
      '--args',
      '{"path":"a.txt","find":"one","replace":"1"}',
      '--workspace',
      dirs.ws,
    ];
    const refused = await hplugin(example('replace-text'), ...args);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error E_RUN_PLUGIN_ERROR: .*E_HOST_READ_ONLY/);
    expect(await readFile(join(dirs.ws, 'a.txt'), 'utf8')).toBe('one two one');
    const allowed = await hplugin(example('replace-text'), ...args, '--allow-write');
    expect(allowed.code).toBe(0);
    expect(await readFile(join(dirs.ws, 'a.txt'), 'utf8')).toBe('1 two 1');
  });

  it('notes keeps KV across runs with --storage, and only for that workspace id', async () => {
    const storage = join(dirs.dir, 'kv');
    const base = ['--workspace', dirs.ws, '--storage', storage];
    expect((await hplugin(example('notes'), '--tool', 'add_note', '--args', '{"text":"buy milk"}', ...base)).code).toBe(
      0,
    );
    expect((await hplugin(example('notes'), '--tool', 'add_note', '--args', '{"text":"call mum"}', ...base)).code).toBe(
      0,
    );
    const listed = await hplugin(example('notes'), '--tool', 'list_notes', '--args', '{}', ...base);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('buy milk');
    expect(listed.stdout).toContain('call mum');
    const elsewhere = await hplugin(
      example('notes'),
      '--tool',
      'list_notes',
      '--args',
      '{}',
      ...base,
      '--workspace-id',
      'other',
    );
    expect(elsewhere.stdout).not.toContain('buy milk');
    const inMemory = await hplugin(example('notes'), '--tool', 'list_notes', '--args', '{}', '--workspace', dirs.ws);
    expect(inMemory.stdout).not.toContain('buy milk');
  });

  it('refuses arguments that do not match the tool schema as a usage error', async () => {
    const r = await hplugin(
      example('word-count'),
      '--tool',
      'count_words',
      '--args',
      '{"file":"notes.txt"}',
      '--workspace',
      dirs.ws,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error E_USAGE: --args does not match count_words's parameters/);
  });

  it('list-tree lists folders through many fs.list calls', async () => {
    await mkdir(join(dirs.ws, 'src/deep'), { recursive: true });
    await writeFile(join(dirs.ws, 'src/deep/x.rs'), 'fn main() {}');
    const r = await hplugin(example('list-tree'), '--tool', 'list_tree', '--args', '{}', '--workspace', dirs.ws);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('x.rs');
  });
});

describe('hplugin run: failures and exit codes', () => {
  it('an infinite loop stops at --timeout-ms with E_RUN_TIMEOUT, exit 1', async () => {
    const r = await hplugin(
      await packed(await hostileWasm('infinite-loop')),
      '--tool',
      'run',
      '--args',
      '{}',
      '--workspace',
      dirs.ws,
      '--timeout-ms',
      '300',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error E_RUN_TIMEOUT: .* \(That is what was left of --timeout-ms 300 after reading and checking the package and --args\.\)\n$/,
    );
    expect(r.stdout).toBe('');
  });

  it('a trap aborts with E_RUN_TRAP, exit 1', async () => {
    const r = await hplugin(
      await packed(await hostileWasm('trap')),
      '--tool',
      'run',
      '--args',
      '{}',
      '--workspace',
      dirs.ws,
    );
    expect(r).toMatchObject({ code: 1 });
    expect(r.stderr).toMatch(/^error E_RUN_TRAP: /);
  });

  it('a plugin error frame exits 1 with E_RUN_PLUGIN_ERROR and its message', async () => {
    const r = await hplugin(
      await packed(await recorderWasm([{ type: 'error', error: 'no such word' }])),
      '--tool',
      'run',
      '--args',
      '{}',
      '--workspace',
      dirs.ws,
    );
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'error E_RUN_PLUGIN_ERROR: no such word\n' });
  });

  it('writes only inside the folder: an escaping write is refused to the plugin, which goes on', async () => {
    const r = await hplugin(
      await packed(await recorderWasm([hostCall(1, 'fs.write', { path: '../escape.txt', text: 'x' })])),
      '--tool',
      'run',
      '--args',
      '{}',
      '--workspace',
      dirs.ws,
      '--allow-write',
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('E_PATH_ESCAPE');
    expect(existsSync(join(dirs.dir, 'escape.txt'))).toBe(false);
  });

  it('an invalid package fails with the verify code, exit 1', async () => {
    const file = join(dirs.dir, 'bad.hplugin.zip');
    await writeFile(file, 'not a zip');
    const r = await hplugin(file, '--tool', 'run', '--args', '{}', '--workspace', dirs.ws);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error E_PACKAGE_NOT_ZIP: /);
  });

  it('usage errors exit 2', async () => {
    const pkg = await packed(await recorderWasm([]));
    expect((await hplugin(pkg, '--args', '{}', '--workspace', dirs.ws)).code).toBe(2);
    expect((await hplugin(pkg, '--tool', 'run', '--args', '{nope', '--workspace', dirs.ws)).code).toBe(2);
    expect((await hplugin(pkg, '--tool', 'run', '--args', '[]', '--workspace', dirs.ws)).code).toBe(2);
    expect((await hplugin(pkg, '--tool', 'run', '--args', '{}', '--workspace', join(dirs.dir, 'missing'))).code).toBe(
      2,
    );
    expect(
      (await hplugin(pkg, '--tool', 'run', '--args', '{}', '--workspace', dirs.ws, '--timeout-ms', '0')).code,
    ).toBe(2);
    expect((await hplugin(pkg, '--tool', 'nope', '--args', '{}', '--workspace', dirs.ws)).code).toBe(2);
    expect((await hplugin(pkg, '--tool', 'run', '--args', '{}', '--workspace', dirs.ws, '--bogus')).stderr).toMatch(
      /^error E_USAGE: /,
    );
  });

  it("bad --args JSON shows the parser's reason and a correctly quoted example", async () => {
    const pkg = await packed(await recorderWasm([]));
    const r = await hplugin(pkg, '--tool', 'run', '--args', '{path:"notes.txt"}', '--workspace', dirs.ws);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error E_USAGE: --args is not valid JSON \(.+\)\. Pass one JSON object with double-quoted keys, in single quotes for the shell: --args '\{"path":"notes\.txt"\}'/,
    );
    const notObject = await hplugin(pkg, '--tool', 'run', '--args', '"notes.txt"', '--workspace', dirs.ws);
    expect(notObject.stderr).toMatch(
      /^error E_USAGE: --args must be a JSON object, not "notes\.txt"\. Pass one JSON object/,
    );
  });

  it('an unknown tool lists the real ones and says to pass one with --tool', async () => {
    const pkg = await packed(await recorderWasm([]), { tools: ['run', 'other'] });
    const r = await hplugin(pkg, '--tool', 'count', '--args', '{}', '--workspace', dirs.ws);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      'error E_USAGE: test.recorder has no tool "count"; its tools: run, other. Pass one of these local names (the "name" of a tool in manifest.json) with --tool.\n',
    );
  });

  it('arguments that break the schema are answered with the fields the tool takes', async () => {
    const pkg = await packed(await recorderWasm([]));
    const r = await hplugin(pkg, '--tool', 'run', '--args', '{"path":"x"}', '--workspace', dirs.ws);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error E_USAGE: --args does not match run's parameters: at .*[^.]\. Give --args the fields of the tool's "parameters" in manifest\.json \(it takes none: --args '\{\}'\)\.\n$/,
    );
  });

  it('a workspace that does not exist, or is a file, says which and what to pass', async () => {
    const pkg = await packed(await recorderWasm([]));
    const missing = await hplugin(pkg, '--tool', 'run', '--args', '{}', '--workspace', join(dirs.dir, 'missing'));
    expect(missing.stderr).toMatch(
      /^error E_USAGE: --workspace .*missing does not exist; pass the folder the plugin may read/,
    );
    const file = await hplugin(pkg, '--tool', 'run', '--args', '{}', '--workspace', pkg);
    expect(file.stderr).toMatch(/^error E_USAGE: --workspace .* is a file, not a folder; pass the folder/);
  });

  it('an unreachable trap says it is usually a Rust panic and how to find it', async () => {
    const r = await hplugin(
      await packed(await hostileWasm('trap')),
      '--tool',
      'run',
      '--args',
      '{}',
      '--workspace',
      dirs.ws,
    );
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error E_RUN_TRAP: .*unreachable.* usually a panic .*testing::Driver.*StepOutput::error/),
      '',
    ]);
  });

  it('a missing package file says to build it with hplugin pack', async () => {
    const r = await hplugin(
      join(dirs.dir, 'nope.hplugin.zip'),
      '--tool',
      'run',
      '--args',
      '{}',
      '--workspace',
      dirs.ws,
    );
    expect(r).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /^error E_FILE_READ: .*nope\.hplugin\.zip does not exist \(ENOENT\)\. .*"hplugin pack"/,
      ),
    });
  });

  it('derives the default workspace id from the canonical folder path', async () => {
    const link = join(dirs.dir, 'link');
    await symlink(dirs.ws, link);
    expect(await defaultWorkspaceId(link)).toBe(await defaultWorkspaceId(dirs.ws));
    expect(await defaultWorkspaceId(dirs.ws)).toMatch(/^dir-[0-9a-f]{32}$/);
  });
});
