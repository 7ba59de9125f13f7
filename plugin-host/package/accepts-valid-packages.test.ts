// Valid packages are accepted, with the facts the installer shows; packing is deterministic and writes the real
// SHA-256; what current Rust emits (bulk memory, SIMD, reference types, ...) passes the code walk.
import { describe, expect, it } from 'vitest';
import { packPackage } from './pack';
import { validatePackage } from './validate-package';
import { validateWasm } from './wasm-validate';
import { readPackageZip } from './zip-read';
import { buildPackage, exampleManifest, LICENSE_TEXT, sha256Of, validWasm } from '../fixtures/packages/valid-parts';
import { ALL_FEATURES, readWat, watToWasm } from '../fixtures/packages/wat';

describe('valid packages', () => {
  it('accepts the seed example manifest with a module that has every required export', async () => {
    const wasm = await validWasm();
    const pkg = await validatePackage(await buildPackage({ wasm }));
    expect(pkg.manifest).toEqual({ ...exampleManifest(), sha256: sha256Of(wasm) });
    expect(pkg.sha256).toBe(sha256Of(wasm));
    expect(pkg.wasm).toEqual(wasm);
    expect(pkg.licenseText).toBe(LICENSE_TEXT);
    expect(pkg.wasmInfo.memory).toEqual({ min: 17, max: 1024 });
    expect(pkg.wasmInfo.tables).toEqual([{ min: 2, max: 2 }]);
    expect(pkg.wasmInfo.exports).toEqual(expect.arrayContaining(['memory', '__heap_base', 'harness_step']));
  });

  it('accepts bulk memory, sign extension, multi-value, reference types, trunc_sat and SIMD', async () => {
    const wasm = await watToWasm(readWat('modern-features.wat'), ALL_FEATURES);
    expect(validateWasm(wasm).tables).toEqual([
      { min: 2, max: 8 },
      { min: 1, max: 1 },
    ]);
  });

  it('accepts a package written by a streaming tool (data descriptors, extra fields)', async () => {
    const pkg = await buildPackage({
      entries: (es) =>
        es.map((e) => ({
          ...e,
          descriptor: true,
          centralExtra: new Uint8Array([0x55, 0x54, 1, 0, 0]),
          localExtra: new Uint8Array([0x55, 0x54, 5, 0, 1, 0, 0, 0, 0]),
        })),
    });
    await expect(validatePackage(pkg)).resolves.toMatchObject({ manifest: { id: 'example.word-count' } });
  });

  it('accepts the flags and versions common zippers write (UTF-8 names, deflate level hints, descriptors, ZIP 2.0-6.3)', async () => {
    // Info-ZIP sets bit 1 for -9 and bits 1+2 for -1; Java and .NET set bit 3; 7-Zip writes version 20, Python 20 or 45.
    for (const [flags, versionNeeded] of [
      [0x0800, 20],
      [0x0802, 20],
      [0x0806, 10],
      [0x0808, 45],
      [0x080e, 63],
    ] as const) {
      const pkg = await buildPackage({
        entries: (es) =>
          es.map((e) => ({ ...e, flags: flags & ~0x08, descriptor: (flags & 0x08) !== 0, versionNeeded })),
      });
      await expect(
        validatePackage(pkg),
        `flags 0x${flags.toString(16)}, version ${versionNeeded}`,
      ).resolves.toBeDefined();
    }
  });

  it('accepts manifest text with ordinary non-ASCII letters and emoji', async () => {
    const m = exampleManifest();
    m.name = 'Wörter zählen — 字数 😀';
    (m.tools as Record<string, unknown>[])[0]!.description = 'Zählt Wörter. 统计文件中的字数。';
    await expect(validatePackage(await buildPackage({ manifest: m }))).resolves.toMatchObject({
      manifest: { name: 'Wörter zählen — 字数 😀' },
    });
  });

  it('accepts a whole parameters schema that uses every supported keyword', async () => {
    const m = exampleManifest();
    (m.tools as unknown[])[0] = {
      name: 'search',
      description: 'Search files.',
      parameters: {
        type: 'object',
        title: 'Search',
        description: 'Arguments',
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 200, pattern: '^\\S', default: 'x' },
          limit: { type: 'integer', minimum: 1, maximum: 100, exclusiveMaximum: 101, exclusiveMinimum: 0 },
          kinds: { type: 'array', items: { enum: ['file', 'dir'] }, minItems: 0, maxItems: 2, uniqueItems: true },
          mode: { const: 'fast' },
          opts: { type: ['object', 'null'], additionalProperties: { type: 'boolean' } },
          constructorName: { type: 'string' },
        },
        required: ['query'],
        additionalProperties: false,
      },
    };
    await expect(validatePackage(await buildPackage({ manifest: m }))).resolves.toBeDefined();
  });
});

describe('packPackage', () => {
  it('writes the real sha256 whatever the manifest held, or when it held none', async () => {
    const wasm = await validWasm();
    const { sha256: _drop, ...without } = exampleManifest();
    for (const manifest of [exampleManifest(), without, { ...exampleManifest(), sha256: 'not even hex' }]) {
      const { bytes, validated } = await packPackage({
        manifest: JSON.stringify(manifest),
        wasm,
        license: LICENSE_TEXT,
      });
      expect(validated.manifest.sha256).toBe(sha256Of(wasm));
      const text = new TextDecoder().decode((await readPackageZip(bytes))['manifest.json']);
      expect(JSON.parse(text).sha256).toBe(sha256Of(wasm));
    }
  });

  it('is deterministic: the same inputs give byte-identical archives', async () => {
    const input = { manifest: JSON.stringify(exampleManifest()), wasm: await validWasm(), license: LICENSE_TEXT };
    const a = await packPackage(input);
    const b = await packPackage({ ...input, wasm: input.wasm.slice() });
    expect(sha256Of(a.bytes)).toBe(sha256Of(b.bytes));
  });

  it('writes entries in a fixed order with the DOS epoch date and no extra fields or data descriptors', async () => {
    const { bytes } = await packPackage({
      manifest: exampleManifest() as never,
      wasm: await validWasm(),
      license: LICENSE_TEXT,
    });
    const view = new DataView(bytes.buffer, bytes.byteOffset);
    const names: string[] = [];
    let p = 0;
    while (view.getUint32(p, true) === 0x04034b50) {
      expect(view.getUint16(p + 6, true) & 0x08).toBe(0); // no data descriptor
      expect([view.getUint16(p + 10, true), view.getUint16(p + 12, true)]).toEqual([0, 0x21]);
      expect(view.getUint16(p + 28, true)).toBe(0); // no extra field
      const nameLength = view.getUint16(p + 26, true);
      names.push(new TextDecoder().decode(bytes.subarray(p + 30, p + 30 + nameLength)));
      p += 30 + nameLength + view.getUint32(p + 18, true);
    }
    expect(names).toEqual(['manifest.json', 'plugin.wasm', 'LICENSE']);
  });

  it('keeps the author key order and refuses a manifest with duplicate keys before writing anything', async () => {
    const wasm = await validWasm();
    const source = JSON.stringify(exampleManifest());
    const { bytes } = await packPackage({ manifest: source, wasm, license: LICENSE_TEXT });
    const text = new TextDecoder().decode((await readPackageZip(bytes))['manifest.json']);
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(exampleManifest()));
    await expect(
      packPackage({ manifest: source.replace('"name":', '"name":"x","name":'), wasm, license: LICENSE_TEXT }),
    ).rejects.toMatchObject({
      code: 'E_MANIFEST_DUPLICATE_KEY',
    });
  });

  it('refuses a wasm that breaks the ABI with the validator code', async () => {
    const wasm = await watToWasm(readWat('memory-no-max.wat'));
    await expect(
      packPackage({ manifest: exampleManifest() as never, wasm, license: LICENSE_TEXT }),
    ).rejects.toMatchObject({ code: 'E_WASM_MEMORY_NO_MAXIMUM' });
  });
});
