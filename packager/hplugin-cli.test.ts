// `hplugin pack` / `hplugin verify` called in-process through `main(argv, io)`: output, exit codes, files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main';
import { buildPackage, exampleManifest, LICENSE_TEXT, sha256Of, validWasm } from '../plugin-host/fixtures/packages/valid-parts';
import { readWat, watToWasm } from '../plugin-host/fixtures/packages/wat';

let dir: string;
let wasm: Uint8Array;
const p = (name: string) => join(dir, name);

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hplugin-'));
  wasm = await validWasm();
  await writeFile(p('manifest.json'), JSON.stringify(exampleManifest(), null, 2));
  await writeFile(p('plugin.wasm'), wasm);
  await writeFile(p('LICENSE'), LICENSE_TEXT);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const packArgs = (out: string, wasmFile = 'plugin.wasm') => ['pack', '--manifest', p('manifest.json'), '--wasm', p(wasmFile), '--license', p('LICENSE'), '-o', p(out)];

describe('hplugin pack', () => {
  it('writes a package that verify accepts, with the real sha256', async () => {
    const r = await run(...packArgs('a.hplugin.zip'));
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain(`sha256       ${sha256Of(wasm)}`);
    const v = await run('verify', p('a.hplugin.zip'));
    expect(v).toMatchObject({ code: 0, stderr: '' });
    expect(v.stdout).toContain('valid example.word-count 1.0.0 (Word count)');
    expect(v.stdout).toContain('permissions  workspace: read, storage: false');
    expect(v.stdout).toContain('tools        count_words');
  });

  it('is byte-identical when run twice on the same inputs', async () => {
    await run(...packArgs('one.zip'));
    await run(...packArgs('two.zip', 'plugin.wasm'));
    expect(sha256Of(await readFile(p('one.zip')))).toBe(sha256Of(await readFile(p('two.zip'))));
  });

  it('refuses a module that breaks the ABI, writes nothing, and says how to fix it', async () => {
    await writeFile(p('nomax.wasm'), await watToWasm(readWat('memory-no-max.wat')));
    const r = await run(...packArgs('bad.zip', 'nomax.wasm'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error E_WASM_MEMORY_NO_MAXIMUM: The memory declares no maximum\. .*official config.*\n$/);
    expect((await readdir(dir)).filter((f) => f.startsWith('bad.zip'))).toEqual([]);
  });

  it('refuses WASI imports as WASI misuse', async () => {
    await writeFile(p('wasi.wasm'), await watToWasm(readWat('imports-wasi.wat')));
    const r = await run(...packArgs('wasi.zip', 'wasi.wasm'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error E_WASM_IMPORTS: plugin\.wasm imports wasi_snapshot_preview1\.fd_write\. .*WASI/);
  });

  it('exits 2 with a usage error when an option is missing, unknown or repeated', async () => {
    for (const argv of [
      ['pack', '--manifest', p('manifest.json')],
      ['pack', '--bogus'],
      [...packArgs('x.zip'), '-o', p('y.zip')],
      ['pack', '--wasm'],
    ]) {
      const r = await run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^error E_USAGE: .*hplugin pack --help/);
    }
  });

  it('reports an unreadable input file with exit 1', async () => {
    const r = await run('pack', '--manifest', p('nope.json'), '--wasm', p('plugin.wasm'), '--license', p('LICENSE'), '-o', p('z.zip'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error E_FILE_READ: Cannot read .*nope\.json \(ENOENT\)/);
  });

  it('prints help with --help and exits 0', async () => {
    const r = await run('pack', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: hplugin pack --manifest FILE --wasm FILE --license FILE -o OUT');
  });
});

describe('hplugin verify', () => {
  it('prints a JSON summary with --json', async () => {
    await run(...packArgs('j.zip'));
    const r = await run('verify', p('j.zip'), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      id: 'example.word-count',
      version: '1.0.0',
      sha256: sha256Of(wasm),
      permissions: { workspace: 'read', storage: false },
      tools: [{ name: 'count_words', description: 'Count words in a UTF-8 workspace file.' }],
    });
  });

  it('exits 1 with one error line for a hostile package, and the refusal as JSON with --json', async () => {
    await writeFile(p('hash.zip'), await buildPackage({ manifest: { ...exampleManifest(), sha256: 'ab'.repeat(32) }, keepSha256: true }));
    const r = await run('verify', p('hash.zip'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/^error E_HASH_MISMATCH: .*repack with hplugin pack/), '']);
    const j = await run('verify', '--json', p('hash.zip'));
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({ ok: false, error: { code: 'E_HASH_MISMATCH', data: { declared: 'ab'.repeat(32) } } });
  });

  it('exits 2 without a file or with two', async () => {
    expect((await run('verify')).code).toBe(2);
    expect((await run('verify', 'a', 'b')).code).toBe(2);
  });
});

describe('hplugin', () => {
  it('prints each command\'s help through "hplugin help COMMAND"', async () => {
    expect((await run('help', 'verify')).stdout).toContain('Usage: hplugin verify FILE [--json]');
    expect((await run('help', 'pack')).stdout).toContain('Usage: hplugin pack');
    expect((await run('help', 'run')).stdout).toContain('Usage: hplugin run PACKAGE');
    expect(await run('help')).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: hplugin <command>') });
  });

  it('exits 2 with usage on stderr for no command or an unknown one', async () => {
    const none = await run();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: hplugin <command>');
    const unknown = await run('publish');
    expect(unknown).toMatchObject({ code: 2, stderr: 'error E_USAGE: unknown command "publish". Run "hplugin --help".\n' });
  });
});
