// Real Rust output: the SDK's example plugins, built by `npm run plugins` (which `npm test` runs before the unit
// tests), are packed and accepted. This is the acceptance case the hand-written .wat modules only approximate:
// rustc's actual sections, tables, globals and instruction mix go through the walk.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packPackage } from './pack';
import { validatePackage } from './validate-package';
import { validateWasm } from './wasm-validate';

const root = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLES = ['word-count', 'notes', 'replace-text', 'list-tree'];
const wasmPath = (name: string) =>
  `${root}sdk-rust/target/wasm32-unknown-unknown/release/${name.replace(/-/g, '_')}.wasm`;

describe('real Rust plugins', () => {
  it.each(EXAMPLES)('accepts the %s example built for wasm32-unknown-unknown', async (name) => {
    const file = wasmPath(name);
    expect(existsSync(file), `${file} is missing: run "npm run plugins" first`).toBe(true);
    const wasm = new Uint8Array(readFileSync(file));
    const info = validateWasm(wasm);
    expect(info.memory.max).toBeLessThanOrEqual(1024);
    expect(info.exports).toEqual(
      expect.arrayContaining(['memory', 'harness_abi_version', 'harness_alloc', 'harness_free', 'harness_step']),
    );
    const { validated } = await packPackage({
      manifest: new Uint8Array(readFileSync(`${root}sdk-rust/examples/${name}/manifest.json`)),
      wasm,
      license: new Uint8Array(readFileSync(`${root}sdk-rust/LICENSE`)),
    });
    expect(validated.manifest.id).toBe(`example.${name}`);
  });

  it.each(EXAMPLES)(
    'accepts dist/plugins/%s.hplugin.zip as packed by "npm run plugins" with hplugin pack',
    async (name) => {
      const file = `${root}dist/plugins/${name}.hplugin.zip`;
      expect(existsSync(file), `${file} is missing: run "npm run plugins" first`).toBe(true);
      const pkg = await validatePackage(new Uint8Array(readFileSync(file)));
      expect(pkg.manifest.id).toBe(`example.${name}`);
      expect(pkg.wasmInfo.exports).toContain('harness_step');
    },
  );
});
