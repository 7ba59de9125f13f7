// The Rust tutorial in sdk-rust/README.md, followed literally: its Cargo.toml, .cargo/config.toml and manifest.json
// blocks, and every `hplugin` command of its shell blocks, run through `main` in a fresh folder laid out as the
// tutorial says. A tutorial step that stops working (a renamed flag, an invalid manifest, a missing build setting)
// fails here instead of on a newcomer's machine.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatePackage } from '../plugin-host';
import { validWasm } from '../plugin-host/fixtures/packages/valid-parts';
import { main } from './main';

const root = join(import.meta.dirname, '..');
const readme = await readFile(join(root, 'sdk-rust/README.md'), 'utf8');
const tutorial = readme.slice(readme.indexOf('## Tutorial'), readme.indexOf('## The SDK'));
const blocks = (lang: string) =>
  [...tutorial.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!.replace(/^ {4}/gm, ''));

/** POSIX shell words of one command line: single and double quotes, backslash escapes; nothing else is needed. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let s = '';
      for (i++; line[i] !== '"'; i++) s += line[i] === '\\' ? line[++i] : line[i];
      word = (word ?? '') + s;
    } else if (c === '\\') {
      word = (word ?? '') + line[++i];
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** Every `node ../i/bin/hplugin.js …` command of the tutorial's shell blocks, continuation lines joined. */
const commands = blocks('sh')
  .flatMap((b) => b.replace(/\\\n\s*/g, '').split('\n'))
  .filter((l) => l.startsWith('node ../i/bin/hplugin.js '))
  .map((l) => shellWords(l).slice(2));

let dir = '';
let rustWasm: Uint8Array | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hplugin-tutorial-'));
  const example = join(root, 'dist/plugins/word-count.hplugin.zip');
  if (existsSync(example)) rustWasm = (await validatePackage(new Uint8Array(await readFile(example)))).wasm;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('sdk-rust/README.md tutorial', () => {
  it('tells the author to build a cdylib with the size profile, the memory maximum and the SDK from the checkout', () => {
    const [cargoToml, config] = blocks('toml');
    expect(cargoToml).toMatch(/\[lib\]\ncrate-type = \["cdylib"\]/);
    expect(cargoToml).toMatch(
      /\[profile\.release\]\nopt-level = "s"\nlto = true\ncodegen-units = 1\npanic = "abort"\nstrip = true/,
    );
    const sdk = /harness-wasm-sdk = \{ path = "\.\.\/i\/(sdk-rust\/sdk)" \}/.exec(cargoToml!);
    expect(sdk, 'the SDK path is ../i/sdk-rust/sdk, matching the folder layout of the tutorial').not.toBeNull();
    expect(existsSync(join(root, sdk![1]!, 'Cargo.toml'))).toBe(true);
    expect(config).toContain('[target.wasm32-unknown-unknown]\nrustflags = ["-C", "link-arg=--max-memory=67108864"]');
    expect(existsSync(join(root, 'bin/hplugin.js'))).toBe(true);
    expect(tutorial).toContain('rustup target add wasm32-unknown-unknown');
    expect(tutorial).toMatch(/Create `LICENSE`/);
  });

  it('its pack, verify and run commands work as written on the manifest it shows', async () => {
    expect(commands.map((c) => c[0])).toEqual(['pack', 'verify', 'run']);
    const [manifest] = blocks('json');
    await writeFile(join(dir, 'manifest.json'), manifest!);
    await writeFile(join(dir, 'LICENSE'), 'MIT License\n');
    await mkdir(join(dir, 'target/wasm32-unknown-unknown/release'), { recursive: true });
    await writeFile(
      join(dir, 'target/wasm32-unknown-unknown/release/word_count.wasm'),
      rustWasm ?? (await validWasm()),
    );
    const demo = /echo "([^"]*)" > demo\/notes\.txt/.exec(tutorial);
    expect(demo).not.toBeNull();
    await mkdir(join(dir, 'demo'));
    await writeFile(join(dir, 'demo/notes.txt'), `${demo![1]}\n`);

    // Relative paths are the tutorial's, taken from the plugin crate's folder.
    const valued = new Set(['--tool', '--args']);
    const inDir = (argv: string[]) =>
      argv.map((a, i) =>
        i === 0 || a.startsWith('-') || valued.has(argv[i - 1]!) || isAbsolute(a) ? a : join(dir, a),
      );
    const results = [];
    for (const argv of commands) {
      if (argv[0] === 'run' && !rustWasm) continue; // needs the real word-count module: `npm run plugins`
      let stdout = '';
      let stderr = '';
      const code = await main(inDir(argv), { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
      expect({ argv: argv.join(' '), code, stderr }).toEqual({ argv: argv.join(' '), code: 0, stderr: '' });
      results.push(stdout);
    }
    expect(results[1]).toContain('valid example.word-count 1.0.0 (Word count)');
    if (rustWasm) {
      const printed = /It prints the plugin's output, `([^`]+)`/.exec(tutorial);
      expect(results[2]).toBe(printed?.[1]);
    }
  });
});
