#!/usr/bin/env node
// Rust side of the build (sdk-rust/, a Cargo workspace).
//
//   node scripts/rust.mjs test      cargo test of the whole workspace on the host (protocol round trips against the
//                                   shared fixtures, SDK state machine, alloc/free balance, example plugins)
//   node scripts/rust.mjs plugins   build every example to wasm32-unknown-unknown (release), print its size, run it
//                                   once in Node's WebAssembly through the real ABI (sdk-rust/tools/smoke-wasm.mjs),
//                                   pack it with `hplugin pack` into dist/plugins/<name>.hplugin.zip, `hplugin verify` it
//
// Toolchain choice (see sdk-rust/README.md "Building offline"):
// - Offline (default when Debian's cargo registry has serde): Debian's /usr/bin/cargo + rustc 1.63, which ship the
//   wasm32 standard library, with crates.io replaced by /usr/share/cargo/registry and --offline. The replacement
//   is passed on the command line only, never committed, so that a normal checkout builds from crates.io.
// - Online (I_RUST_ONLINE=1, or --online, or no Debian registry): `cargo` from PATH, e.g. rustup's stable with
//   `rustup target add wasm32-unknown-unknown`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const WORKSPACE = 'sdk-rust';
const EXAMPLES = ['word-count', 'notes', 'replace-text', 'list-tree'];
const DEBIAN_REGISTRY = '/usr/share/cargo/registry';
const DEBIAN_CARGO = '/usr/bin/cargo';
const OUT_DIR = join('dist', 'plugins');
const WASM_TARGET = 'wasm32-unknown-unknown';

const [command, ...rest] = process.argv.slice(2);
const online = rest.includes('--online') || Boolean(process.env.I_RUST_ONLINE);

function seconds(t0) {
  return `${((Date.now() - t0) / 1000).toFixed(1)}s`;
}

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

function debianRegistryHasSerde() {
  if (!existsSync(DEBIAN_REGISTRY)) return false;
  const names = readdirSync(DEBIAN_REGISTRY);
  return ['serde-', 'serde_derive-', 'serde_json-'].every((p) => names.some((n) => n.startsWith(p)));
}

/** How to call cargo: which binary, which environment, which extra arguments. */
function toolchain() {
  if (!online && debianRegistryHasSerde() && existsSync(DEBIAN_CARGO)) {
    return {
      label: `Debian cargo (offline, crates from ${DEBIAN_REGISTRY})`,
      cmd: DEBIAN_CARGO,
      // Debian's rustc must come first: rustup's proxies earlier on PATH have no wasm32 standard library.
      env: { ...process.env, PATH: `/usr/bin:${process.env.PATH ?? ''}` },
      extra: [
        '--config',
        'source.crates-io.replace-with="debian"',
        '--config',
        `source.debian.directory="${DEBIAN_REGISTRY}"`,
        '--offline',
      ],
    };
  }
  return { label: 'cargo from PATH (online)', cmd: 'cargo', env: process.env, extra: [] };
}

function cargo(tc, args) {
  const r = spawnSync(tc.cmd, [...args, ...tc.extra], { cwd: WORKSPACE, env: tc.env, stdio: 'inherit' });
  if (r.error) {
    fail(
      `could not run ${tc.cmd} (${r.error.message}). Install Rust (Debian: apt-get install cargo rustc libstd-rust-dev-wasm32 librust-serde-dev librust-serde-derive-dev librust-serde-json-dev lld; elsewhere: rustup and "rustup target add ${WASM_TARGET}").`,
    );
  }
  return r.status ?? 1;
}

function runTests() {
  const tc = toolchain();
  console.log(`rust: ${tc.label}`);
  const t0 = Date.now();
  const status = cargo(tc, ['test', '--workspace', '--locked']);
  console.log(`rust: cargo test ${status === 0 ? 'passed' : 'FAILED'} in ${seconds(t0)}`);
  process.exit(status);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** `dist/cli/hplugin.js`, rebuilt when missing or older than the packager sources it bundles. */
function ensureHplugin() {
  const bundle = join('dist', 'cli', 'hplugin.js');
  const stale =
    !existsSync(bundle) || Math.max(newestMtime('packager'), newestMtime('plugin-host')) > statSync(bundle).mtimeMs;
  if (!stale) return;
  console.log('rust: building the hplugin CLI (npm run build:cli)');
  const r = spawnSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) fail('"npm run build:cli" failed; hplugin is needed to pack the example plugins.');
}

function hplugin(args) {
  return spawnSync(process.execPath, ['bin/hplugin.js', ...args], { encoding: 'utf8' });
}

async function buildPlugins() {
  const tc = toolchain();
  console.log(`rust: ${tc.label}`);
  let t0 = Date.now();
  const packages = EXAMPLES.flatMap((name) => ['-p', name]);
  const status = cargo(tc, ['build', '--release', '--locked', '--target', WASM_TARGET, ...packages]);
  if (status !== 0) {
    const hint = tc.cmd === 'cargo' ? ` (is the target installed? "rustup target add ${WASM_TARGET}")` : '';
    fail(`cargo build of the example plugins failed${hint}.`);
  }
  console.log(`rust: built ${EXAMPLES.length} plugins in ${seconds(t0)}`);

  const built = EXAMPLES.map((name) => {
    const wasm = join(WORKSPACE, 'target', WASM_TARGET, 'release', `${name.replace(/-/g, '_')}.wasm`);
    const bytes = statSync(wasm).size;
    return { name, wasm, bytes };
  });
  console.log('\nplugin            wasm size');
  for (const p of built)
    console.log(`${p.name.padEnd(16)} ${String(p.bytes).padStart(8)} B  (${(p.bytes / 1024).toFixed(1)} KiB)`);
  console.log('');

  t0 = Date.now();
  const { smoke } = await import(pathToFileURL(resolve(WORKSPACE, 'tools', 'smoke-wasm.mjs')).href);
  for (const p of built) {
    try {
      await smoke(p.name, p.wasm);
    } catch (error) {
      fail(
        `${p.name}: the wasm module misbehaved when run through the ABI: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  console.log(`rust: ran each module through the ABI in Node in ${seconds(t0)}`);

  t0 = Date.now();
  ensureHplugin();
  mkdirSync(OUT_DIR, { recursive: true });
  const problems = [];
  for (const p of built) {
    const out = join(OUT_DIR, `${p.name}.hplugin.zip`);
    const pack = hplugin([
      'pack',
      '--manifest',
      join(WORKSPACE, 'examples', p.name, 'manifest.json'),
      '--wasm',
      p.wasm,
      '--license',
      join(WORKSPACE, 'LICENSE'),
      '-o',
      out,
    ]);
    if (pack.status !== 0) {
      const why = (pack.stderr || pack.stdout).trim();
      if (/E_NOT_IMPLEMENTED|E_NOT_BUILT/.test(why)) {
        problems.push(
          `${p.name}: "hplugin pack" is not available yet (${why}). The wasm module is built at ${p.wasm}; pack it once the packager lands.`,
        );
      } else {
        problems.push(`${p.name}: hplugin pack refused the plugin: ${why}`);
      }
      continue;
    }
    const verify = hplugin(['verify', out]);
    if (verify.status !== 0) {
      problems.push(`${p.name}: hplugin verify refused ${out}: ${(verify.stderr || verify.stdout).trim()}`);
      continue;
    }
    console.log(`rust: packed and verified ${out} (${statSync(out).size} B)`);
  }
  console.log(`rust: packing took ${seconds(t0)}`);
  if (problems.length > 0) {
    for (const line of problems) console.error(`error: ${line}`);
    process.exit(1);
  }
}

if (!existsSync(join(WORKSPACE, 'Cargo.toml')))
  fail(`${WORKSPACE}/Cargo.toml is missing; run this from the repository root.`);
if (command === 'test') runTests();
else if (command === 'plugins') await buildPlugins();
else {
  console.error(
    'Usage: node scripts/rust.mjs test|plugins [--online]\n(I_RUST_ONLINE=1 also selects cargo from PATH with crates.io.)',
  );
  process.exit(2);
}
