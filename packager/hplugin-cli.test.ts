// `hplugin pack` / `hplugin verify` called in-process through `main(argv, io)`: output, exit codes, files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main';
import {
  buildPackage,
  exampleManifest,
  LICENSE_TEXT,
  sha256Of,
  validWasm,
} from '../plugin-host/fixtures/packages/valid-parts';
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

/** `wasm` with a custom section of `bytes` zeros appended: valid, compresses to almost nothing, as large as asked. */
function withCustomSection(module: Uint8Array, bytes: number): Uint8Array {
  const name = [4, ...new TextEncoder().encode('pad1')];
  const leb = (n: number) => {
    const out: number[] = [];
    do {
      out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n >>>= 7;
    } while (n > 0);
    return out;
  };
  const header = [0, ...leb(name.length + bytes), ...name];
  const result = new Uint8Array(module.length + header.length + bytes);
  result.set(module);
  result.set(header, module.length);
  return result;
}

const packArgs = (out: string, wasmFile = 'plugin.wasm') => [
  'pack',
  '--manifest',
  p('manifest.json'),
  '--wasm',
  p(wasmFile),
  '--license',
  p('LICENSE'),
  '-o',
  p(out),
];

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
    expect(r.stderr).toMatch(
      /^error E_WASM_MEMORY_NO_MAXIMUM: The memory declares no maximum\. .*official config.*\n$/,
    );
    expect((await readdir(dir)).filter((f) => f.startsWith('bad.zip'))).toEqual([]);
  });

  it('refuses WASI imports as WASI misuse', async () => {
    await writeFile(p('wasi.wasm'), await watToWasm(readWat('imports-wasi.wat')));
    const r = await run(...packArgs('wasi.zip', 'wasi.wasm'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error E_WASM_IMPORTS: plugin\.wasm imports "wasi_snapshot_preview1\.fd_write"\. .*WASI/);
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
    const r = await run(
      'pack',
      '--manifest',
      p('nope.json'),
      '--wasm',
      p('plugin.wasm'),
      '--license',
      p('LICENSE'),
      '-o',
      p('z.zip'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error E_FILE_READ: .*nope\.json does not exist \(ENOENT\)\. Write manifest\.json as step 3 of sdk-rust\/README\.md shows/,
    );
  });

  it('says how to build a missing wasm: the release command, the "_" file name and crate-type cdylib', async () => {
    const r = await run(
      'pack',
      '--manifest',
      p('manifest.json'),
      '--wasm',
      p('target/wasm32-unknown-unknown/release/my_plugin.wasm'),
      '--license',
      p('LICENSE'),
      '-o',
      p('z.zip'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error E_FILE_READ: .*my_plugin\.wasm does not exist \(ENOENT\)\. Build it first with "cargo build --release --target wasm32-unknown-unknown"/,
    );
    expect(r.stderr).toContain('crate-type = ["cdylib"]');
  });

  it('tells a newcomer without a LICENSE file to create one', async () => {
    const r = await run(
      'pack',
      '--manifest',
      p('manifest.json'),
      '--wasm',
      p('plugin.wasm'),
      '--license',
      p('NO-LICENSE'),
      '-o',
      p('z.zip'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error E_FILE_READ: .*NO-LICENSE does not exist \(ENOENT\)\. Every package carries its license text: create the file/,
    );
  });

  it('names the author’s manifest file, whatever it is called, when its JSON is broken', async () => {
    await writeFile(p('my-plugin.json'), '{\n  "name": "x",\n  "version" "1"\n}');
    const r = await run(
      'pack',
      '--manifest',
      p('my-plugin.json'),
      '--wasm',
      p('plugin.wasm'),
      '--license',
      p('LICENSE'),
      '-o',
      p('z.zip'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^error E_MANIFEST_JSON: ${p('my-plugin.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} line 3 column`,
      ),
    );
  });

  it('names a folder given as an input file', async () => {
    const r = await run(
      'pack',
      '--manifest',
      p('manifest.json'),
      '--wasm',
      dir,
      '--license',
      p('LICENSE'),
      '-o',
      p('z.zip'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error E_FILE_READ: .* is a folder, not a file \(EISDIR\)\. Pass the path of the file itself with --wasm\.\n$/,
    );
  });

  it('says to create the output folder when -o points into one that does not exist, and writes nothing', async () => {
    const r = await run(...packArgs('missing/deeper/out.hplugin.zip'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^error E_FILE_WRITE: Cannot write .*out\.hplugin\.zip: the folder .*missing\/deeper does not exist \(ENOENT\)\. Create it first \(mkdir -p .*missing\/deeper\)/,
    );
    expect(existsSync(p('missing'))).toBe(false);
  });

  it('refuses to overwrite one of its inputs with the package', async () => {
    const before = await readFile(p('manifest.json'), 'utf8');
    const r = await run(
      'pack',
      '--manifest',
      p('manifest.json'),
      '--wasm',
      p('plugin.wasm'),
      '--license',
      p('LICENSE'),
      '-o',
      join(dir, '.', 'manifest.json'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error E_USAGE: -o .*manifest\.json is also the --manifest input, and packing would overwrite it; write the package elsewhere/,
    );
    expect(await readFile(p('manifest.json'), 'utf8')).toBe(before);
  });

  it('refuses a folder as -o and suggests a file name inside it', async () => {
    const r = await run(
      'pack',
      '--manifest',
      p('manifest.json'),
      '--wasm',
      p('plugin.wasm'),
      '--license',
      p('LICENSE'),
      '-o',
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error E_FILE_WRITE: -o ${dir} is a folder. Give a file name, for example -o ${dir}/NAME.hplugin.zip.\n`,
    );
  });

  it('explains an over-limit debug build: same code, plus its size and the release build to run', async () => {
    await mkdir(p('target/wasm32-unknown-unknown/debug'), { recursive: true });
    const debugWasm = p('target/wasm32-unknown-unknown/debug/my_plugin.wasm');
    await writeFile(debugWasm, withCustomSection(wasm, 9 * 1024 * 1024));
    const r = await run(
      'pack',
      '--manifest',
      p('manifest.json'),
      '--wasm',
      debugWasm,
      '--license',
      p('LICENSE'),
      '-o',
      p('debug.zip'),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(
        /^error E_PACKAGE_ENTRY_TOO_LARGE: plugin\.wasm is more than .* It is a debug build .*\[profile\.release\].*"cargo build --release --target wasm32-unknown-unknown"\.$/,
      ),
      '',
    ]);
    expect(existsSync(p('debug.zip'))).toBe(false);
  });

  it('packs a module over 1 MiB but adds a note that the size profile is missing', async () => {
    await writeFile(p('big.wasm'), withCustomSection(wasm, 2 * 1024 * 1024));
    const r = await run(...packArgs('big.zip', 'big.wasm'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^note: .*big\.wasm is \d+ bytes\. A release build with the \[profile\.release\] of sdk-rust\/README\.md/,
    );
    const small = await run(...packArgs('small.zip'));
    expect(small.stderr).toBe('');
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
    await writeFile(
      p('hash.zip'),
      await buildPackage({ manifest: { ...exampleManifest(), sha256: 'ab'.repeat(32) }, keepSha256: true }),
    );
    const r = await run('verify', p('hash.zip'));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([
      expect.stringMatching(/^error E_HASH_MISMATCH: .*repack with hplugin pack/),
      '',
    ]);
    const j = await run('verify', '--json', p('hash.zip'));
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toMatchObject({
      ok: false,
      error: { code: 'E_HASH_MISMATCH', data: { declared: 'ab'.repeat(32) } },
    });
  });

  it.skipIf(!existsSync('/dev/zero'))(
    'refuses an endless file (/dev/zero) as too large, reading no more than the size cap',
    async () => {
      const r = await run('verify', '/dev/zero');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^error E_PACKAGE_TOO_LARGE: /);
      const ran = await run('run', '/dev/zero', '--tool', 'x', '--args', '{}', '--workspace', dir);
      expect(ran.stderr).toMatch(/^error E_PACKAGE_TOO_LARGE: /);
    },
  );

  it('says what to do when the file is missing or is a folder', async () => {
    const missing = await run('verify', p('never-packed.hplugin.zip'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^error E_FILE_READ: .*never-packed\.hplugin\.zip does not exist \(ENOENT\)\. Check the path, or build the package first with "hplugin pack"\.\n$/,
    );
    const folder = await run('verify', dir);
    expect(folder.stderr).toMatch(
      /^error E_FILE_READ: .* is a folder, not a file \(EISDIR\)\. Pass the path of the file itself\.\n$/,
    );
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
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'error E_USAGE: unknown command "publish". Run "hplugin --help".\n',
    });
  });
});
